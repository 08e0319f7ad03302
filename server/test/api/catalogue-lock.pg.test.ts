// A catalogue delete waiting on a PostgreSQL row lock half way through its transaction does not hold the server
// (issue #30, session 32: traccar/crud.ts's delete on db/repos/query.ts inTransaction, the write client). Another
// connection holds the device's creator link (SELECT … FOR UPDATE in an open transaction); DELETE /api/devices/{id}
// deletes the device row, then waits in PostgreSQL on the link while its transaction holds the device's row; the
// server answers /api/health and the device list meanwhile (the list, read elsewhere, still shows the device: nothing
// is committed); once the lock is released the delete is answered 204 and the device and its links are gone. Before,
// the transaction ran through the synchronous worker (retired in session 38), which blocks the main thread until
// PostgreSQL answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDevice, expectStatus, type TestApp } from '../helpers/app.ts';
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

describe('a catalogue delete waiting on a row lock', () => {
  it('lets the server answer meanwhile, then deletes the device and its links together', async () => {
    const device = await createDevice(t, { name: 'Locked link' });
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe(
        `SELECT "ownerId" FROM links WHERE "propertyType" = 'device' AND "propertyId" = $1 FOR UPDATE`,
        [device.id],
      );
      const order: string[] = [];
      const deleting = api(t.app, t.admin, 'DELETE', `/api/devices/${device.id}`).then((res) => {
        order.push('delete');
        return res;
      });
      await untilLockWaited(watcher, 'transactionid');
      expect((await api(t.app, null, 'GET', '/api/health')).statusCode).toBe(200);
      const listed = expectStatus<Array<{ id: number }>>(
        await api(t.app, t.admin, 'GET', '/api/devices?all=true'),
        200,
      );
      expect(listed.map((d) => d.id)).toContain(device.id);
      order.push('served');
      await locker.unsafe('ROLLBACK');
      expect((await deleting).statusCode).toBe(204);
      expect(order).toEqual(['served', 'delete']);
      expect(await count(t.ctx.store.sql, 'devices', { id: device.id })).toBe(0);
      expect(await count(t.ctx.store.sql, 'links', { propertyType: 'device', propertyId: device.id })).toBe(
        0,
      );
    } finally {
      await end();
    }
  });
});
