// A running server on PostgreSQL refuses SQLite's text (issue #30, session 28): nothing translates it any more, the
// tests' translator included (retired: the tests read and write rows with kysely, support/testSql.ts). Since session
// 38 the PostgreSQL store has no synchronous statement at all (db/postgres.ts), so prepare() fails at once with a
// message naming the way to write the query: kysely through db/repos/query.ts's asynchronous runners.
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
      /^PostgreSQL has no synchronous statements \(prepare: SELECT COUNT.*use the asynchronous runners of db\/repos\/query\.ts$/,
    );
    expect(() => sql.prepare("INSERT OR IGNORE INTO links (ownerType) VALUES ('user')")).toThrow(
      /PostgreSQL has no synchronous statements/,
    );
    expect(await count(sql, 'devices', { uniqueId: 'none' })).toBe(0);
  });
});
