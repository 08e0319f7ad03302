// Moving an installation from SQLite to PostgreSQL (db/copyStore.ts): the demo store, history included, is copied
// table by table; the server then runs on PostgreSQL with the same users, devices and positions, new ids continue
// after the copied ones, and a database that already has data is refused.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { copySqliteToPostgres } from '../../src/db/copyStore.ts';
import { getLive } from '../../src/live/ingest.ts';
import { startFleet } from '../../src/live/simulator/index.ts';
import { login } from '../helpers/app.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { count, insert, one, type Table } from '../support/testSql.ts';

const dir = mkdtempSync(join(tmpdir(), 'rastro-copy-'));
const key = `copy-${randomUUID()}`;
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await dropStore(key);
});

const counts = (file: string) => {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
      .all() as Array<{ name: string }>;
    return Object.fromEntries(
      tables.map((t) => [
        t.name,
        (db.prepare(`SELECT COUNT(*) AS n FROM ${t.name}`).get() as { n: number }).n,
      ]),
    );
  } finally {
    db.close();
  }
};

describe('copy from SQLite to PostgreSQL', () => {
  it('copies every table; the server runs on the copy; ids continue; a used database is refused', async () => {
    if (!TEST_DATABASE_URL)
      throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
    // a SQLite store with the demo fleet and its history
    const sqliteConfig = loadConfig(
      { DATA_DIR: dir, OSMAND_PORT: '0', LOG_LEVEL: 'silent' },
      { simDevices: 3, simIntervalMs: 3_600_000 },
    );
    const first = await buildApp(sqliteConfig);
    await first.app.ready();
    await (await startFleet(first.ctx))!.ready;
    getLive(first.ctx).flushNow();
    await first.app.close();
    const before = counts(sqliteConfig.sqliteFile);
    expect(before.positions).toBeGreaterThan(100);

    const { DATABASE_URL } = await storeEnv(key);
    const report = await copySqliteToPostgres(sqliteConfig.sqliteFile, DATABASE_URL!);
    expect(Object.fromEntries(report.tables.map((t) => [t.table, t.rows]))).toEqual(before);

    const pgConfig = loadConfig({
      DATA_DIR: dir,
      DATABASE_URL: DATABASE_URL!,
      SIM_DEVICES: '0',
      OSMAND_PORT: '0',
      LOG_LEVEL: 'silent',
    });
    const second = await buildApp(pgConfig);
    try {
      await second.app.ready();
      const sql = second.ctx.store.sql;
      for (const [table, n] of Object.entries(before))
        expect(await count(sql, table as Table), table).toBe(n);
      // the demo manager signs in with the password hashed in SQLite
      const cookie = await login(second.app, 'gerente@rastro.demo', 'demo123');
      const devices = await second.app.inject({ method: 'GET', url: '/api/devices', headers: { cookie } });
      expect(devices.statusCode).toBe(200);
      expect((devices.json() as unknown[]).length).toBeGreaterThan(0);
      const maxId = Number(
        (await one(sql, (q) => q.selectFrom('devices').select((e) => e.fn.max('id').as('n'))))?.n,
      );
      const id = await insert(sql, 'devices', { name: 'New', uniqueId: 'copy-new' });
      expect(id).toBe(maxId + 1);
    } finally {
      await second.app.close();
    }
    await expect(copySqliteToPostgres(sqliteConfig.sqliteFile, DATABASE_URL!)).rejects.toThrow(
      /already has users/,
    );
  }, 120_000);
});
