// A QR check-in is one asynchronous transaction (issue #30, session 33: live/qrDriver.ts on db/repos/query.ts
// inTransaction; on PostgreSQL the write client, off the synchronous worker): the check-out of the driver's previous
// vehicle, the device's and the user's attributes and the audit action commit together. A statement refused half way
// — the action's INSERT, by a trigger the test installs — leaves every attribute as it was, on SQLite and on
// PostgreSQL; once the trigger is gone the same check-in is stored whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type CreatedUser,
  type TestApp,
} from '../helpers/index.ts';
import { refuseStatements } from '../support/refuseTrigger.ts';
import { count, first } from '../support/testSql.ts';

const NS = 'rastro';

let t: TestApp;
let qr: CreatedUser;
let driverId: number;
let truck: { id: number };
let van: { id: number };

const attrsOf = async (table: 'devices' | 'users', id: number) =>
  JSON.parse(
    ((await first(t.ctx.store.sql, table, { id }, { columns: ['attributes'] })) as { attributes: string })
      .attributes,
  ) as Record<string, unknown>;
const post = (id: number) =>
  t.app.inject({
    method: 'POST',
    url: `/${NS}/qr-driver`,
    headers: { cookie: qr.cookie, 'content-type': 'application/json' },
    payload: JSON.stringify({ id }),
  });
const actions = async () =>
  await count(t.ctx.store.sql, 'actions', { objectType: 'device', actionType: 'edit' });

beforeAll(async () => {
  t = await makeTestApp();
  driverId = expectStatus<{ id: number }>(
    await api(t.app, t.admin, 'POST', '/api/drivers', { name: 'Ana QR', uniqueId: 'qr-ana', attributes: {} }),
    200,
  ).id;
  qr = await createUser(t, { attributes: { [`${NS}.isQrDriverId`]: driverId } });
  truck = await createDevice(t, { attributes: { [`${NS}.qrDriver`]: true } });
  van = await createDevice(t, { attributes: { [`${NS}.qrDriver`]: true } });
  await link(t, { userId: qr.id, deviceId: truck.id });
  await link(t, { userId: qr.id, deviceId: van.id });
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
});
afterAll(async () => {
  await t?.close();
});

describe('a QR check-in refused half way stores nothing', () => {
  it('the action refused: neither the device nor the user changed; then the check-in is stored whole', async () => {
    const before = await actions();
    const undo = await refuseStatements(t, 'actions', 'INSERT');
    try {
      expect((await post(truck.id)).statusCode).toBe(500);
    } finally {
      await undo();
    }
    expect((await attrsOf('devices', truck.id)).qrDriverId).toBeUndefined();
    expect((await attrsOf('users', qr.id))[`${NS}.isQrDeviceId`]).toBeUndefined();
    expect(await actions()).toBe(before);

    expectStatus(await post(truck.id), 200);
    expect(await attrsOf('devices', truck.id)).toMatchObject({
      qrDriverId: driverId,
      driverUniqueId: 'qr-ana',
    });
    expect((await attrsOf('users', qr.id))[`${NS}.isQrDeviceId`]).toBe(truck.id);
    expect(await actions()).toBe(before + 1);
  });

  it('a switch to another vehicle refused: the check-out of the first is rolled back with it', async () => {
    const before = await actions();
    const undo = await refuseStatements(t, 'actions', 'INSERT');
    try {
      expect((await post(van.id)).statusCode).toBe(500);
    } finally {
      await undo();
    }
    // still on the truck: its check-out (the user's and the truck's attributes) did not commit either
    expect(await attrsOf('devices', truck.id)).toMatchObject({ qrDriverId: driverId });
    expect((await attrsOf('devices', van.id)).qrDriverId).toBeUndefined();
    expect((await attrsOf('users', qr.id))[`${NS}.isQrDeviceId`]).toBe(truck.id);
    expect(await actions()).toBe(before);

    expectStatus(await post(van.id), 200);
    expect((await attrsOf('devices', truck.id)).qrDriverId).toBeUndefined();
    expect(await attrsOf('devices', van.id)).toMatchObject({ qrDriverId: driverId });
    expect((await attrsOf('users', qr.id))[`${NS}.isQrDeviceId`]).toBe(van.id);
    expect(await actions()).toBe(before + 2); // the check-out's and the check-in's
  });
});
