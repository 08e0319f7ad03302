// A running server on PostgreSQL refuses SQLite's text (issue #30, session 28): nothing translates it any more, the
// tests' translator included (retired: the tests read and write rows with kysely, support/testSql.ts), so prepare()
// fails at once with a message naming the way to write the query.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/index.ts';
import { TEST_DATABASE_URL } from '../helpers/store.ts';
import { count } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('SQLite text on a PostgreSQL server', () => {
  it('prepare() refuses it with a clear message; the same read through kysely answers', async () => {
    const sql = t.ctx.store.sql;
    expect(sql.dialect).toBe('postgres');
    expect(() => sql.prepare('SELECT COUNT(*) AS n FROM devices WHERE uniqueId = ?')).toThrow(
      /^SQLite text on PostgreSQL: write the query with kysely \(db\/repos\/query\.ts\) or natively/,
    );
    expect(() => sql.prepare("INSERT OR IGNORE INTO links (ownerType) VALUES ('user')")).toThrow(
      /SQLite text on PostgreSQL/,
    );
    expect(await count(sql, 'devices', { uniqueId: 'none' })).toBe(0);
  });
});
