// The live cache's reload and the latest positions the socket and the position API read leave the server free while
// PostgreSQL waits (issue #30, session 35): another connection holds a table they read (LOCK … ACCESS EXCLUSIVE in an
// open transaction) and /api/health is answered first; once the lock is released they answer. Before, the socket's
// attach and the API's latest position read through the synchronous worker, retired in session 38 (the cache's
// synchronous reload, the prepared position read), which holds the main thread until PostgreSQL answers (here: the
// statement timeout, since this process could not release the lock meanwhile). The order is certain: the test sees
// the wait in pg_locks.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { LiveCache } from '../../src/live/cache.ts';
import { getLive } from '../../src/live/ingest.ts';
import { api, createUser, type CreatedUser, type TestApp } from '../helpers/index.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';
import { insert, update } from '../support/testSql.ts';
import { startSocketApp } from '../support/socketApp.ts';

let t: TestApp;
let url: string;
let socketUrl: string;
let user: CreatedUser;
let sockets: WebSocket[];
let close: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
  ({ url: socketUrl, sockets, close } = await startSocketApp(t));
  user = await createUser(t);
});
afterAll(async () => {
  await (close ? close() : t?.close()); // the app closes even when it never listened
});

/** A device with a latest position, written behind the live core (as another process does), linked to `user`. */
async function deviceBehind(uniqueId: string): Promise<{ deviceId: number; positionId: number }> {
  const db = t.ctx.store.sql;
  const deviceId = Number(await insert(db, 'devices', { name: uniqueId, uniqueId }));
  const time = new Date().toISOString();
  const positionId = Number(
    await insert(db, 'positions', {
      deviceId,
      protocol: 'osmand',
      serverTime: time,
      deviceTime: time,
      fixTime: time,
      latitude: 3,
      longitude: 4,
    }),
  );
  await update(db, 'devices', { positionId, lastUpdate: time }, { id: deviceId });
  await insert(db, 'links', {
    ownerType: 'user',
    ownerId: user.id,
    propertyType: 'device',
    propertyId: deviceId,
  });
  return { deviceId, positionId };
}

async function health(order: string[]): Promise<void> {
  const res = await t.app.inject({ method: 'GET', url: '/api/health' });
  expect(res.statusCode).toBe(200);
  order.push('health');
}

describe('reads of the live core waiting on a lock', () => {
  it("a socket's attach: the cache's reload waits on devices, health answered first", async () => {
    const { deviceId, positionId } = await deviceBehind('reload-lock-1');
    const loads = vi.spyOn(LiveCache.prototype as unknown as { load(): void }, 'load');
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe('LOCK TABLE devices IN ACCESS EXCLUSIVE MODE');
      getLive(t.ctx).invalidate(); // as another process's change does
      const order: string[] = [];
      const first = new Promise<{ positions?: Array<{ id: number; deviceId: number }> }>(
        (resolve, reject) => {
          const ws = new WebSocket(socketUrl, { headers: { cookie: user.cookie } });
          sockets.push(ws);
          ws.once('message', (d) => {
            order.push('socket');
            resolve(JSON.parse(String(d)) as { positions?: [] });
          });
          ws.once('error', reject);
        },
      );
      await untilLockWaited(watcher, 'relation');
      await health(order);
      await locker.unsafe('COMMIT');
      const message = await first;
      expect(order).toEqual(['health', 'socket']);
      expect(message.positions?.map((p) => [p.deviceId, p.id])).toContainEqual([deviceId, positionId]);
      expect(loads).not.toHaveBeenCalled();
    } finally {
      loads.mockRestore();
      await end();
    }
  });

  it("the position API's latest position: read on the pool while positions is locked, health answered first", async () => {
    const { deviceId, positionId } = await deviceBehind('reload-lock-2');
    const live = getLive(t.ctx);
    live.invalidate();
    await live.cache.freshAsync(); // the device known, its latest position not in memory yet
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe('LOCK TABLE positions IN ACCESS EXCLUSIVE MODE');
      const order: string[] = [];
      const answer = api(t.app, user.cookie, 'GET', `/api/positions?deviceId=${deviceId}`).then((r) => {
        order.push('positions');
        return r;
      });
      await untilLockWaited(watcher, 'relation');
      await health(order);
      await locker.unsafe('COMMIT');
      const res = await answer;
      expect(res.statusCode).toBe(200);
      expect((res.json() as Array<{ id: number }>).map((p) => p.id)).toEqual([positionId]);
      expect(order).toEqual(['health', 'positions']);
    } finally {
      await end();
    }
  });
});
