// A report whose device the live cache does not know yet (created by another process or straight in the store, so no
// bus signal reached this one): found in the store, the cache read again, the report stored. On PostgreSQL the
// ingestion does both on the read pool (deviceStates.ts findDeviceAsync, issue #30, session 32), never through the
// synchronous reload (LiveCache.load, the synchronous worker); since session 35 SQLite's ingestion does the same (on
// the connection's turn), never the synchronous reload. Runs on both stores.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { insertAsync, qb } from '../../src/db/repos/query.ts';
import { LiveCache } from '../../src/live/cache.ts';
import { getLive } from '../../src/live/ingest.ts';
import { ingestPosition, laterFixTime, makeTestApp, type TestApp } from '../helpers/index.ts';
import { DEVICE_ROW_BASE } from '../support/deviceRow.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t.close();
});

/** The cache's synchronous reload (private: spied through the prototype). */
const syncLoads = () => vi.spyOn(LiveCache.prototype as unknown as { load(): void }, 'load');

describe('a report while the live cache is stale', () => {
  it('of a device stored behind the cache: found, the cache read again, the report stored', async () => {
    const db = t.ctx.store.sql;
    const live = getLive(t.ctx);
    await live.cache.freshAsync();
    const id = await insertAsync(
      db,
      qb(db)
        .insertInto('devices')
        .values({ ...DEVICE_ROW_BASE, name: 'Behind the cache', uniqueId: 'stale-behind' }),
    );
    expect(live.cache.device(id)).toBeUndefined();
    const loads = syncLoads();
    try {
      const p = await ingestPosition(t, { uniqueId: 'stale-behind', fixTime: laterFixTime() });
      expect(p.deviceId).toBe(id);
      expect(live.cache.device(id)?.name).toBe('Behind the cache');
      expect(loads).not.toHaveBeenCalled();
    } finally {
      loads.mockRestore();
    }
  });

  it('after an invalidation (another process changed something): read again before the report is taken', async () => {
    const live = getLive(t.ctx);
    const first = await ingestPosition(t, { uniqueId: 'stale-behind', fixTime: laterFixTime() });
    live.invalidate();
    expect(live.cache.stale).toBe(true);
    const loads = syncLoads();
    try {
      const p = await ingestPosition(t, { uniqueId: 'stale-behind', fixTime: laterFixTime() });
      expect(p.deviceId).toBe(first.deviceId);
      expect(live.cache.stale).toBe(false);
      expect(loads).not.toHaveBeenCalled();
    } finally {
      loads.mockRestore();
    }
  });

  it('an identifier no device has is refused, the store asked', async () => {
    const r = await getLive(t.ctx).ingest({
      protocol: 'osmand',
      uniqueId: 'stale-nobody',
      latitude: 1,
      longitude: 1,
      fixTime: laterFixTime(),
    });
    expect(r).toMatchObject({ ok: false, error: 'unknownDevice' });
  });
});
