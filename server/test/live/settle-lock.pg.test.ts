// The position API waiting for a batch, and its own writes, never hold the server on PostgreSQL (issue #30, session
// 33, H30s: LiveCore.settle, db/repos/positions.ts's writes on writeAsync). Another connection holds a row (SELECT …
// FOR UPDATE in an open transaction): a batch's write waits for the device's row, the position API waits for that
// batch, and /api/health is answered meanwhile; then the batch is stored and the API answers its position. The same
// for a position's delete waiting for the position's row. Before, the API stored what was queued through flushNow
// (the store's synchronous transaction) and deleted through the synchronous worker (retired in session 38), the main
// thread waiting on PostgreSQL. The order is certain without timing: the test sees the statement waiting in pg_locks
// first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getLive } from '../../src/live/ingest.ts';
import { api, createDevice, ingestPosition, laterFixTime, type TestApp } from '../helpers/index.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';
import { count } from '../support/testSql.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  await t?.close();
});

describe('the position API on PostgreSQL, a row locked elsewhere', () => {
  it('waits for a batch blocked on its device row without holding the server', async () => {
    const device = await createDevice(t, { name: 'Locked batch' });
    await ingestPosition(t, { uniqueId: device.uniqueId, fixTime: laterFixTime() });
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe('SELECT id FROM devices WHERE id = $1 FOR UPDATE', [device.id]);
      const order: string[] = [];
      const fixTime = laterFixTime();
      const report = getLive(t.ctx)
        .ingest({ uniqueId: device.uniqueId, protocol: 'osmand', fixTime, latitude: 3, longitude: 4 })
        .then((r) => {
          order.push('stored');
          return r;
        });
      await untilLockWaited(watcher, 'transactionid'); // the batch's statement waits for the device's row
      const from = new Date(fixTime.getTime() - 1).toISOString();
      const to = new Date(fixTime.getTime() + 1).toISOString();
      const read = api(
        t.app,
        t.admin,
        'GET',
        `/api/positions?deviceId=${device.id}&from=${from}&to=${to}`,
      ).then((r) => {
        order.push('read');
        return r;
      });
      const health = await api(t.app, null, 'GET', '/api/health');
      order.push('health');
      expect(health.statusCode).toBe(200);
      await locker.unsafe('ROLLBACK');
      expect((await report).ok).toBe(true);
      const res = await read;
      expect(res.statusCode).toBe(200);
      expect((res.json() as Array<{ fixTime: string }>).map((p) => Date.parse(p.fixTime))).toEqual([
        fixTime.getTime(),
      ]);
      expect(order).toEqual(['health', 'stored', 'read']);
    } finally {
      await end();
    }
  });

  it('deletes a position whose row is locked once it is released, answering /api/health first', async () => {
    const device = await createDevice(t, { name: 'Locked position' });
    const p = await ingestPosition(t, { uniqueId: device.uniqueId, fixTime: laterFixTime() });
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe('SELECT id FROM positions WHERE id = $1 FOR UPDATE', [p.id]);
      const order: string[] = [];
      const removal = api(t.app, t.admin, 'DELETE', `/api/positions/${p.id}`).then((r) => {
        order.push('deleted');
        return r;
      });
      await untilLockWaited(watcher, 'transactionid');
      const health = await api(t.app, null, 'GET', '/api/health');
      order.push('health');
      expect(health.statusCode).toBe(200);
      await locker.unsafe('ROLLBACK');
      expect((await removal).statusCode).toBe(204);
      expect(order).toEqual(['health', 'deleted']);
      expect(await count(t.ctx.store.sql, 'positions', { id: p.id })).toBe(0);
    } finally {
      await end();
    }
  });
});
