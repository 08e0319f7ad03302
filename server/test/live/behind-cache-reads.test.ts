// A device, its latest position and its link written behind the live core (straight in the store, as another
// process does) reach the socket, the position API and deviceJson once the cache is invalidated (the 'changed' /
// 'permissions' bus signal another process's write brings), read on the pool: never through the cache's
// synchronous reload (LiveCache.load, gone with issue #30, session 35) nor a synchronous read of the latest
// position. Runs on both stores.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { LiveCache } from '../../src/live/cache.ts';
import { getLive } from '../../src/live/ingest.ts';
import { api, createUser, expectStatus, type TestApp } from '../helpers/index.ts';
import { insert, update } from '../support/testSql.ts';
import { startSocketApp } from '../support/socketApp.ts';

let t: TestApp;
let url: string;
let sockets: WebSocket[];
let close: () => Promise<void>;
beforeAll(async () => {
  ({ t, url, sockets, close } = await startSocketApp());
});
afterAll(async () => {
  await close();
});

/** The first message of a socket opened with `cookie` (the latest positions of the devices it sees). */
function firstMessage(cookie: string): Promise<{ positions?: Array<{ id: number; deviceId: number }> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { cookie } });
    sockets.push(ws);
    ws.once('message', (d) => resolve(JSON.parse(String(d)) as { positions?: [] }));
    ws.once('error', reject);
  });
}

/** Whatever the cache would have reloaded synchronously (private: spied through the prototype). */
const syncLoads = () => vi.spyOn(LiveCache.prototype as unknown as { load(): void }, 'load');

describe('rows written behind the live cache', () => {
  it('reach the socket, the position API and deviceJson after the invalidation, never reloaded synchronously', async () => {
    const user = await createUser(t);
    const db = t.ctx.store.sql;
    const live = getLive(t.ctx);
    await live.cache.freshAsync();
    const deviceId = Number(await insert(db, 'devices', { name: 'Behind', uniqueId: 'behind-cache-1' }));
    const time = new Date().toISOString();
    const positionId = Number(
      await insert(db, 'positions', {
        deviceId,
        protocol: 'osmand',
        serverTime: time,
        deviceTime: time,
        fixTime: time,
        latitude: 7,
        longitude: 8,
      }),
    );
    await update(db, 'devices', { positionId, lastUpdate: time }, { id: deviceId });
    await insert(db, 'links', {
      ownerType: 'user',
      ownerId: user.id,
      propertyType: 'device',
      propertyId: deviceId,
    });
    expect(live.cache.device(deviceId)).toBeUndefined();
    const loads = syncLoads();
    try {
      live.invalidate(); // what another process's 'changed' or 'permissions' message does
      const first = await firstMessage(user.cookie);
      expect(first.positions?.map((p) => [p.deviceId, p.id])).toEqual([[deviceId, positionId]]);
      const one = expectStatus<Array<{ id: number; latitude: number }>>(
        await api(t.app, user.cookie, 'GET', `/api/positions?deviceId=${deviceId}`),
        200,
      );
      expect(one.map((p) => [p.id, p.latitude])).toEqual([[positionId, 7]]);
      const latest = expectStatus<Array<{ id: number }>>(
        await api(t.app, user.cookie, 'GET', '/api/positions'),
        200,
      );
      expect(latest.map((p) => p.id)).toEqual([positionId]);
      expect(live.deviceJson(deviceId)?.name).toBe('Behind');
      expect((await live.latestPositionAsync(deviceId))?.id).toBe(positionId);
      expect(loads).not.toHaveBeenCalled();
    } finally {
      loads.mockRestore();
    }
  });

  it('a report after an invalidation is computed on the cache read again, asynchronously', async () => {
    const db = t.ctx.store.sql;
    const live = getLive(t.ctx);
    const deviceId = Number(await insert(db, 'devices', { name: 'Behind 2', uniqueId: 'behind-cache-2' }));
    const loads = syncLoads();
    try {
      live.invalidate();
      const r = await live.ingest({
        uniqueId: 'behind-cache-2',
        protocol: 'osmand',
        fixTime: new Date(),
        latitude: 1,
        longitude: 2,
      });
      expect(r.ok && r.deviceId).toBe(deviceId);
      // the name changed behind the cache: the next batch computes on the cache read again (no synchronous reload)
      await update(db, 'devices', { name: 'Renamed behind' }, { id: deviceId });
      live.invalidate();
      const again = await live.ingest({
        uniqueId: 'behind-cache-2',
        protocol: 'osmand',
        fixTime: new Date(Date.now() + 1000),
        latitude: 1.001,
        longitude: 2,
      });
      expect(again.ok).toBe(true);
      expect(live.cache.stale).toBe(false);
      expect(live.deviceJson(deviceId)?.name).toBe('Renamed behind');
      expect(loads).not.toHaveBeenCalled();
    } finally {
      loads.mockRestore();
    }
  });
});
