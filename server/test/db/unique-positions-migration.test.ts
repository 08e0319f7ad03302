// The migration to one position per device and fix time (issue #30) on a store that already holds duplicates: the
// lowest id of each stays, the devices' latest positions and the events and alarms that named a removed one are
// pointed at it, and the unique index refuses a new duplicate. SQLite here; PostgreSQL with RASTRO_TEST_DATABASE_URL.
import BetterSqlite3 from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrate, migratePostgresAsync, migrations } from '../../src/db/migrations.ts';
import { openStore, openStoreAsync, type Store } from '../../src/db/open.ts';
import { attachReader, PgPool } from '../../src/db/pool.ts';
import { PostgresStore } from '../../src/db/postgres.ts';
import type { SqlDatabase } from '../../src/db/sql.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { first, insert, one, select, update } from '../support/testSql.ts';

const dir = mkdtempSync(join(tmpdir(), 'rastro-migration-'));
const key = `unique-positions-${randomUUID()}`;
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await dropStore(key);
});

/** The step that adds the unique index: the store is filled with every step before it. */
const STEP = migrations.findIndex((m) => m.includes('positions_device_fix'));

async function oldStore(): Promise<{ sql: SqlDatabase; close(): Promise<void>; reopen(): Promise<Store> }> {
  if (TEST_DATABASE_URL) {
    const url = (await storeEnv(key)).DATABASE_URL!;
    await migratePostgresAsync(url, STEP);
    const db = new PostgresStore();
    // the tests' row helpers are asynchronous: a pool (and its write client) as db/open.ts gives a store
    const pool = new PgPool(url, { size: 1 });
    attachReader(db, pool);
    return {
      sql: db,
      close: () => pool.close(),
      reopen: () => openStoreAsync({ sqliteFile: '', databaseUrl: url }),
    };
  }
  const file = join(dir, 'old.sqlite');
  const sqlite = new BetterSqlite3(file);
  migrate(sqlite, STEP);
  return {
    sql: Object.assign(sqlite, {
      dialect: 'sqlite' as const,
      prepareNative: (text: string) => sqlite.prepare(text),
    }) as unknown as SqlDatabase,
    close: async () => void sqlite.close(),
    reopen: async () => openStore(file),
  };
}

describe('migration: one position per device and fix time', () => {
  it('removes duplicates, keeps the lowest id, re-points devices and events', async () => {
    expect(STEP).toBeGreaterThan(0);
    const old = await oldStore();
    const { sql } = old;
    const device = async (name: string) => await insert(sql, 'devices', { name, uniqueId: `${name}-${key}` });
    const a = await device('a');
    const b = await device('b');
    const t0 = '2026-01-01T10:00:00.000Z';
    const t1 = '2026-01-01T10:00:10.000Z';
    const position = async (deviceId: number, fixTime: string, latitude: number) =>
      Number(
        await insert(sql, 'positions', {
          deviceId,
          protocol: 'osmand',
          serverTime: fixTime,
          deviceTime: fixTime,
          fixTime,
          latitude,
          longitude: 0,
        }),
      );
    const a0 = await position(a, t0, 1);
    const a0dup = await position(a, t0, 2);
    const a1 = await position(a, t1, 3);
    const a1dup = await position(a, t1, 4);
    const a1dup2 = await position(a, t1, 5);
    const b0 = await position(b, t0, 6); // the same time on another device is no duplicate
    await update(sql, 'devices', { positionId: a1dup2 }, { id: a });
    await update(sql, 'devices', { positionId: b0 }, { id: b });
    const event = async (deviceId: number, positionId: number) =>
      Number(
        await insert(sql, 'events', {
          type: 'alarm',
          eventTime: '2026-01-01T10:00:00.000Z',
          deviceId,
          positionId,
        }),
      );
    const events = [
      await event(a, a0dup),
      await event(a, a1dup),
      await event(a, a0),
      await event(b, b0),
      await event(a, 0),
    ];
    const alarm = Number(
      await insert(sql, 'alarms', {
        deviceId: a,
        type: 'sos',
        severity: 'high',
        positionId: a0dup,
        lastPositionId: a1dup2,
        startTime: t0,
        lastTime: t1,
      }),
    );
    await old.close();

    const store = await old.reopen();
    try {
      const db = store.sql;
      const ids = (
        await select<{ id: number | string }>(
          db,
          'positions',
          { deviceId: [a, b] },
          { columns: ['id'], orderBy: ['id'] },
        )
      ).map((r) => Number(r.id));
      expect(ids).toEqual([a0, a1, b0]);
      const latest = await select<{ id: number; positionId: number }>(
        db,
        'devices',
        { id: [a, b] },
        { columns: ['id', 'positionId'], orderBy: ['id'] },
      );
      expect(latest.map((r) => [Number(r.id), Number(r.positionId)])).toEqual([
        [a, a1],
        [b, b0],
      ]);
      const named: number[] = [];
      for (const id of events)
        named.push(
          Number(
            (await first<{ positionId: number }>(db, 'events', { id }, { columns: ['positionId'] }))
              ?.positionId,
          ),
        );
      expect(named).toEqual([a0, a1, a0, b0, 0]);
      const alarmRow = (await first(
        db,
        'alarms',
        { id: alarm },
        { columns: ['positionId', 'lastPositionId'] },
      )) as {
        positionId: number;
        lastPositionId: number;
      };
      expect([Number(alarmRow.positionId), Number(alarmRow.lastPositionId)]).toEqual([a0, a1]);
      // every reference left names a stored position
      const dangling = (
        await one(db, (q) =>
          q
            .selectFrom('events as e')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('e.positionId', '<>', 0)
            .where(({ not, exists, selectFrom }) =>
              not(exists(selectFrom('positions as p').select('p.id').whereRef('p.id', '=', 'e.positionId'))),
            ),
        )
      )?.n;
      expect(Number(dangling)).toBe(0);
      expect(a0dup && a1dup).toBeTruthy();
      // the unique index refuses another position of the same device and fix time
      await expect(
        insert(db, 'positions', {
          deviceId: a,
          protocol: 'osmand',
          serverTime: t0,
          deviceTime: t0,
          fixTime: t0,
          latitude: 0,
          longitude: 0,
        }),
      ).rejects.toThrow();
    } finally {
      await store.close();
    }
  });
});
