// The SQLite → PostgreSQL translation of the tests' own statements (test/support/pgTranslate.ts; the server's until
// session 27), rule by rule. The whole server suite then runs on PostgreSQL in npm test's second leg.
import { describe, expect, it } from 'vitest';
import { translateSql } from '../support/pgTranslate.ts';
import { uniqueViolation } from '../../src/db/sql.ts';

const ids = new Set(['devices', 'positions']);
const t = (sql: string, ddl = false) => translateSql(sql, ids, ddl);

describe('translateSql', () => {
  it('numbers ? placeholders and reuses the number of a repeated @name', () => {
    const r = t('UPDATE x SET a = ?, b = ? WHERE c = ?');
    expect(r.text).toBe('UPDATE x SET a = $1, b = $2 WHERE c = $3');
    expect(r.params.map((p) => p.key)).toEqual([0, 1, 2]);
    const n = t('INSERT INTO links (a, b) VALUES (@now, @now) ON CONFLICT(a) DO UPDATE SET b = @other');
    expect(n.text).toContain('VALUES ($1, $1)');
    expect(n.text).toContain('SET b = $2');
    expect(n.params.map((p) => p.key)).toEqual(['now', 'other']);
  });

  it('leaves string literals alone: no placeholder, keyword or quoting inside them', () => {
    const r = t("SELECT id FROM users WHERE email LIKE '%?@rastro.demo' AND name = 'deviceId LIKE'");
    expect(r.text).toBe(
      `SELECT id FROM users WHERE email ILIKE '%?@rastro.demo' ESCAPE '' AND name = 'deviceId LIKE'`,
    );
    expect(r.params).toEqual([]);
  });

  it('quotes camelCase identifiers so PostgreSQL keeps their case, and leaves keywords and lower case alone', () => {
    expect(t('SELECT d.uniqueId, COUNT(*) AS n FROM devices d WHERE d.groupId = ?').text).toBe(
      'SELECT d."uniqueId", COUNT(*) AS n FROM devices d WHERE d."groupId" = $1',
    );
  });

  it('turns IN (SELECT value FROM json_each(?)) into = ANY($n), the JSON text sent as an array', () => {
    const r = t(
      'SELECT * FROM devices WHERE id IN (SELECT value FROM json_each(?)) OR uniqueId IN (SELECT value FROM json_each(?))',
    );
    expect(r.text).toBe('SELECT * FROM devices WHERE id = ANY($1) OR "uniqueId" = ANY($2)');
    expect(r.params.every((p) => p.jsonArray)).toBe(true);
  });

  it('INSERT OR IGNORE → ON CONFLICT DO NOTHING; an INSERT into a table with an id returns it', () => {
    expect(t('INSERT OR IGNORE INTO links (a) VALUES (?)').text).toBe(
      'INSERT INTO links (a) VALUES ($1) ON CONFLICT DO NOTHING',
    );
    const d = t('INSERT INTO devices (name) VALUES (?)');
    expect(d.text).toBe('INSERT INTO devices (name) VALUES ($1) RETURNING id');
    expect(d.returnsId).toBe(true);
    expect(t('INSERT INTO links (a) VALUES (?)').returnsId).toBe(false);
  });

  it('INSERT OR IGNORE into a table with an id skips a row a unique index refuses and returns the id (issue #30)', () => {
    const r = t('INSERT OR IGNORE INTO devices (name) VALUES (?)');
    expect(r.text).toBe('INSERT INTO devices (name) VALUES ($1) ON CONFLICT DO NOTHING RETURNING id');
    expect(r.returnsId).toBe(true);
  });

  it('LIKE → ILIKE, IFNULL → COALESCE, scalar MAX/MIN → GREATEST/LEAST (aggregates kept), COLLATE NOCASE → lower()', () => {
    expect(t('SELECT IFNULL(a, 0) FROM x WHERE b NOT LIKE ?').text).toBe(
      "SELECT COALESCE(a, 0) FROM x WHERE b NOT ILIKE $1 ESCAPE ''",
    );
    expect(t('SELECT MAX(a), MIN(b), MAX(a, excluded.a) FROM x').text).toBe(
      'SELECT MAX(a), MIN(b), (CASE WHEN (a) IS NULL OR (excluded.a) IS NULL THEN NULL ELSE GREATEST(a, excluded.a) END) FROM x',
    );
    expect(t('SELECT * FROM devices ORDER BY name COLLATE NOCASE, id').text).toBe(
      'SELECT * FROM devices ORDER BY lower(name), id',
    );
    expect(t('SELECT CAST(? AS INTEGER), 0').text).toBe('SELECT CAST($1 AS BIGINT), 0');
  });

  it('maps column types in table definitions: BIGSERIAL ids, BIGINT, DOUBLE PRECISION, byte-ordered TEXT', () => {
    const r = t(
      "CREATE TABLE devices (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL DEFAULT 'x', speed REAL, positionId INTEGER) WITHOUT ROWID",
      true,
    );
    expect(r.text).toBe(
      `CREATE TABLE devices (id BIGSERIAL PRIMARY KEY, name TEXT COLLATE "C" NOT NULL DEFAULT 'x', speed DOUBLE PRECISION, "positionId" BIGINT)`,
    );
  });

  it('refuses what has no translation instead of running something else', () => {
    expect(() => t("SELECT json_extract(attributes, '$.a') FROM x")).toThrow(/not portable/);
    expect(() => t('INSERT OR REPLACE INTO x (a) VALUES (?)')).toThrow(/not portable/);
  });
});

describe('uniqueViolation', () => {
  it('names the field from either store', () => {
    expect(
      uniqueViolation({
        code: 'SQLITE_CONSTRAINT_UNIQUE',
        message: 'UNIQUE constraint failed: devices.uniqueId',
      }),
    ).toBe('uniqueId');
    expect(
      uniqueViolation({
        code: 'SQLITE_CONSTRAINT_UNIQUE',
        message: 'UNIQUE constraint failed: index users_email',
      }),
    ).toBe('email');
    expect(uniqueViolation({ code: '23505', detail: 'Key ("uniqueId")=(x) already exists.' })).toBe(
      'uniqueId',
    );
    expect(
      uniqueViolation({
        code: '23505',
        constraint: 'users_email',
        detail: 'Key (lower(email))=(a) already exists.',
      }),
    ).toBe('email');
    expect(uniqueViolation({ code: '23502' })).toBeNull();
  });

  it("keeps SQLite's meaning (issue #30): LIMIT -1, LIKE without escape, MAX/MIN with a NULL", () => {
    // a negative LIMIT is no limit in SQLite: LIMIT ALL, and a negative parameter becomes NULL (no limit)
    expect(t('SELECT id FROM x ORDER BY id LIMIT -1 OFFSET ?').text).toBe(
      'SELECT id FROM x ORDER BY id LIMIT ALL OFFSET $1',
    );
    expect(t('SELECT id FROM x LIMIT ? OFFSET ?').text).toBe(
      'SELECT id FROM x LIMIT CAST(NULLIF(GREATEST(CAST($1 AS BIGINT), -1), -1) AS BIGINT) OFFSET $2',
    );
    // SQLite's LIKE has no escape character: a backslash is itself; an explicit ESCAPE is kept
    expect(t("SELECT 1 FROM x WHERE a LIKE ? AND b LIKE 'x\\%'").text).toBe(
      "SELECT 1 FROM x WHERE a ILIKE $1 ESCAPE '' AND b ILIKE 'x\\%' ESCAPE ''",
    );
    expect(t("SELECT 1 FROM x WHERE lower(a) LIKE ? ESCAPE '\\'").text).toBe(
      "SELECT 1 FROM x WHERE lower(a) ILIKE $1 ESCAPE '\\'",
    );
    // scalar MAX/MIN is NULL when an argument is (GREATEST/LEAST skip NULLs); nested calls translated in both copies
    const nested = t('SELECT MIN(?, MAX(c, 2)) FROM x');
    expect(nested.text).toBe(
      'SELECT (CASE WHEN ($1) IS NULL OR ((CASE WHEN (c) IS NULL OR (2) IS NULL THEN NULL ELSE GREATEST(c, 2) END)) IS NULL' +
        ' THEN NULL ELSE LEAST($2, (CASE WHEN (c) IS NULL OR (2) IS NULL THEN NULL ELSE GREATEST(c, 2) END)) END) FROM x',
    );
    expect(nested.params.map((p) => p.key)).toEqual([0, 0]); // the one value, sent for both copies
  });
});
