// The device's and the user's attribute writes wait in PostgreSQL, not on the main thread (issue #30, session 33:
// db/repos/devices.ts setDeviceAttributes and users.ts setUserAttributes on db/repos/query.ts writeAsync, the QR
// check-in one inTransaction on the write client). Another connection holds the device's row (SELECT … FOR UPDATE in
// an open transaction); the write is seen waiting in pg_locks, /api/health is answered meanwhile, and once the lock
// is released the request is answered and its write stored. Before, these writes went through the synchronous worker
// (retired in session 38), which blocks the main thread until PostgreSQL answers (a 10 s statement timeout here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDevice, createUser, expectStatus, link, type TestApp } from '../helpers/index.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';
import { first } from '../support/testSql.ts';

const NS = 'rastro';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  await t?.close();
});

const attrsOf = async (table: 'devices' | 'users', id: number) =>
  JSON.parse(
    ((await first(t.ctx.store.sql, table, { id }, { columns: ['attributes'] })) as { attributes: string })
      .attributes,
  ) as Record<string, unknown>;

/** Holds the device's row locked while `request` runs: health answers first, then the request once released. */
async function whileRowLocked(deviceId: number, request: () => Promise<{ statusCode: number }>) {
  const { locker, watcher, end } = lockClients(url);
  try {
    await locker.unsafe('BEGIN');
    await locker.unsafe('SELECT id FROM devices WHERE id = $1 FOR UPDATE', [deviceId]);
    const order: string[] = [];
    const answered = request().then((res) => {
      order.push('request');
      return res;
    });
    await untilLockWaited(watcher, 'transactionid');
    const health = await api(t.app, null, 'GET', '/api/health');
    order.push('health');
    expect(health.statusCode).toBe(200);
    await locker.unsafe('ROLLBACK');
    expect((await answered).statusCode).toBe(200);
    expect(order).toEqual(['health', 'request']);
  } finally {
    await end();
  }
}

describe('attribute writes waiting on a locked device row', () => {
  it("OsmAnd's notification token: health answers first, then the token is stored", async () => {
    const d = await createDevice(t, { name: 'Token locked' });
    await whileRowLocked(d.id, () =>
      t.app.inject({ method: 'POST', url: '/', payload: `id=${d.uniqueId}&notificationToken=tok-locked` }),
    );
    expect((await attrsOf('devices', d.id)).notificationTokens).toBe('tok-locked');
  });

  it('a QR check-in (one transaction): health answers first, then the device and the user are stored', async () => {
    const driver = expectStatus<{ id: number }>(
      await api(t.app, t.admin, 'POST', '/api/drivers', {
        name: 'Rui QR',
        uniqueId: 'qr-rui',
        attributes: {},
      }),
      200,
    );
    const qr = await createUser(t, { attributes: { [`${NS}.isQrDriverId`]: driver.id } });
    const truck = await createDevice(t, { attributes: { [`${NS}.qrDriver`]: true } });
    await link(t, { userId: qr.id, deviceId: truck.id });
    const s = expectStatus<{ attributes: Record<string, unknown> }>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', {
        ...s,
        attributes: { ...s.attributes, [`${NS}.qrDriverCheckin`]: true },
      }),
      200,
    );
    await whileRowLocked(truck.id, () =>
      t.app.inject({
        method: 'POST',
        url: `/${NS}/qr-driver`,
        headers: { cookie: qr.cookie, 'content-type': 'application/json' },
        payload: JSON.stringify({ id: truck.id }),
      }),
    );
    expect(await attrsOf('devices', truck.id)).toMatchObject({
      qrDriverId: driver.id,
      driverUniqueId: 'qr-rui',
    });
    expect((await attrsOf('users', qr.id))[`${NS}.isQrDeviceId`]).toBe(truck.id);
  });
});
