// QR driver check-in (server/src/live/qrDriver.ts; rule packages/domain qrDriver.ts): POST /{ns}/qr-driver as the
// roles that may and may not, the translated refusals, what a check-in writes, the driver on later positions, the
// driverChanged event, unlock on check-in, lock without driver, auto logout on ignition off.
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatMessage, type MessageKey } from '@rastro/domain';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  ingestPosition,
  link,
  login,
  type CreatedUser,
  type TestApp,
  makeTestApp,
} from '../helpers/index.ts';
import { first, remove, select } from '../support/testSql.ts';

const NS = 'rastro';

interface Driver {
  id: number;
  uniqueId: string;
}

describe('POST /{ns}/qr-driver', () => {
  let t: TestApp;
  let driver: Driver;
  let qr: CreatedUser;
  let truck: { id: number; uniqueId: string };
  let plain: { id: number; uniqueId: string };

  const deviceAttrs = async (id: number) =>
    JSON.parse(
      (
        (await first(t.ctx.store.sql, 'devices', { id }, { columns: ['attributes'] })) as {
          attributes: string;
        }
      ).attributes,
    ) as Record<string, unknown>;
  const userAttrs = async (id: number) =>
    JSON.parse(
      (
        (await first(t.ctx.store.sql, 'users', { id }, { columns: ['attributes'] })) as {
          attributes: string;
        }
      ).attributes,
    ) as Record<string, unknown>;
  const queued = async (deviceId: number) =>
    (
      (await select(
        t.ctx.store.sql,
        'queued_commands',
        { deviceId },
        { columns: ['type'], orderBy: ['id'] },
      )) as {
        type: string;
      }[]
    ).map((r) => r.type);
  const events = async (deviceId: number, type: string) =>
    (
      (await select(
        t.ctx.store.sql,
        'events',
        { deviceId, type },
        { columns: ['attributes'], orderBy: ['id'] },
      )) as {
        attributes: string;
      }[]
    ).map((r) => JSON.parse(r.attributes) as Record<string, unknown>);

  const post = (cookie: string, body: unknown, lang = 'pt-BR') =>
    t.app.inject({
      method: 'POST',
      url: `/${NS}/qr-driver`,
      headers: { cookie, 'accept-language': lang, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  async function setServerCheckin(on: boolean) {
    const s = expectStatus<{ attributes: Record<string, unknown> }>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', {
        ...s,
        attributes: { ...s.attributes, [`${NS}.qrDriverCheckin`]: on },
      }),
      200,
    );
  }

  async function setDriverOptions(options: Record<string, unknown>) {
    const d = expectStatus<Driver & { name: string; attributes: Record<string, unknown> }>(
      await api(t.app, t.admin, 'GET', `/api/drivers/${driver.id}`),
      200,
    );
    expectStatus(
      await api(t.app, t.admin, 'PUT', `/api/drivers/${driver.id}`, {
        ...d,
        attributes: { ...d.attributes, ...options },
      }),
      200,
    );
  }

  beforeAll(async () => {
    t = await makeTestApp();
    driver = expectStatus<Driver>(
      await api(t.app, t.admin, 'POST', '/api/drivers', {
        name: 'João QR',
        uniqueId: 'qr-joao',
        attributes: { qrUsername: 'joao', qrPassword: 'senha-do-qr' },
      }),
      200,
    );
    qr = await createUser(t, { attributes: { [`${NS}.isQrDriverId`]: driver.id } });
    truck = await createDevice(t, { attributes: { [`${NS}.qrDriver`]: true } });
    plain = await createDevice(t);
    await link(t, { userId: qr.id, deviceId: truck.id });
    await link(t, { userId: qr.id, deviceId: plain.id });
    await setServerCheckin(true);
  });
  afterAll(async () => t.close());

  beforeEach(async () => {
    await setDriverOptions({
      qrUnlockDevice: false,
      qrLockWithoutDriver: false,
      qrLogoutOnIgnitionOff: false,
      qrLockTimeout: 0,
      qrLogoutTimeout: 0,
    });
    expectStatus(await post(qr.cookie, { id: 0 }), 200);
  });

  const expectRefusal = async (
    res: Awaited<ReturnType<typeof post>>,
    status: number,
    key: MessageKey,
    lang: 'pt-BR' | 'es' | 'en-US' = 'pt-BR',
  ) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.body).toContain(formatMessage(key, lang));
  };

  it('checks in with the driver password: device and user attributes, a driverChanged event, the driver on later positions', async () => {
    await ingestPosition(t, { uniqueId: truck.uniqueId, fixTime: new Date(Date.now() - 5000) });
    const res = await post(qr.cookie, { id: truck.id, password: 'senha-do-qr' });
    expect(expectStatus<{ deviceId: number }>(res, 200).deviceId).toBe(truck.id);
    expect(await deviceAttrs(truck.id)).toMatchObject({ qrDriverId: driver.id, driverUniqueId: 'qr-joao' });
    expect((await userAttrs(qr.id))[`${NS}.isQrDeviceId`]).toBe(truck.id);
    expect((await events(truck.id, 'driverChanged')).at(-1)).toEqual({ driverUniqueId: 'qr-joao' });
    const before = (await events(truck.id, 'driverChanged')).length;

    const p = await ingestPosition(t, { uniqueId: truck.uniqueId, fixTime: new Date() });
    expect(p.attributes.driverUniqueId).toBe('qr-joao');
    expect((await events(truck.id, 'driverChanged')).length).toBe(before); // no second event for the same driver

    const state = expectStatus<{ deviceId: number; driver: { name: string; passwordRequired: boolean } }>(
      await api(t.app, qr.cookie, 'GET', `/${NS}/qr-driver`),
      200,
    );
    expect(state.deviceId).toBe(truck.id);
    expect(state.driver).toMatchObject({ name: 'João QR', passwordRequired: true });

    // check-out (id 0) clears both sides; later positions carry no driver
    expectStatus(await post(qr.cookie, { id: 0 }), 200);
    expect((await deviceAttrs(truck.id)).qrDriverId).toBeUndefined();
    expect((await deviceAttrs(truck.id)).driverUniqueId).toBeUndefined();
    expect((await userAttrs(qr.id))[`${NS}.isQrDeviceId`]).toBeUndefined();
    const after = await ingestPosition(t, { uniqueId: truck.uniqueId, fixTime: new Date(Date.now() + 1000) });
    expect(after.attributes.driverUniqueId).toBeUndefined();
  });

  it('refusals, in the caller’s language, write nothing', async () => {
    await expectRefusal(
      await post(qr.cookie, { id: truck.id, password: 'errada' }),
      403,
      'qrDriver.wrongPassword',
    );
    await expectRefusal(await post(qr.cookie, { id: truck.id }, 'es'), 403, 'qrDriver.wrongPassword', 'es');
    await expectRefusal(
      await post(qr.cookie, { id: plain.id, password: 'senha-do-qr' }),
      403,
      'qrDriver.deviceNotEnabled',
    );
    const foreign = await createDevice(t, { attributes: { [`${NS}.qrDriver`]: true } });
    await expectRefusal(
      await post(qr.cookie, { id: foreign.id, password: 'senha-do-qr' }),
      400,
      'qrDriver.deviceNotFound',
    );
    await expectRefusal(await post(qr.cookie, { id: 'x' }, 'en-US'), 400, 'qrDriver.deviceRequired', 'en-US');
    await expectRefusal(await post(qr.cookie, { id: -3 }), 400, 'qrDriver.deviceRequired');
    await expectRefusal(await post(qr.cookie, null), 400, 'qrDriver.deviceRequired');

    await setServerCheckin(false);
    await expectRefusal(
      await post(qr.cookie, { id: truck.id, password: 'senha-do-qr' }),
      403,
      'qrDriver.checkinDisabled',
    );
    await setServerCheckin(true);

    // not a QR driver: a normal user and the administrator are refused
    const user = await createUser(t);
    await link(t, { userId: user.id, deviceId: truck.id });
    await expectRefusal(await post(user.cookie, { id: truck.id }), 403, 'qrDriver.noDriver');
    await expectRefusal(await post(t.admin, { id: truck.id }), 403, 'qrDriver.noDriver');
    expect((await api(t.app, null, 'POST', `/${NS}/qr-driver`, { id: truck.id })).statusCode).toBe(401);

    expect((await deviceAttrs(truck.id)).qrDriverId).toBeUndefined();
    expect((await userAttrs(qr.id))[`${NS}.isQrDeviceId`]).toBeUndefined();
  });

  it('wrong QR passwords are limited: the 11th try within 15 minutes is 429 even with the right one', async () => {
    const other = expectStatus<Driver>(
      await api(t.app, t.admin, 'POST', '/api/drivers', {
        name: 'Limite',
        uniqueId: 'qr-limite',
        attributes: { qrPassword: 'certa' },
      }),
      200,
    );
    const u = await createUser(t, { attributes: { [`${NS}.isQrDriverId`]: other.id } });
    await link(t, { userId: u.id, deviceId: truck.id });
    for (let i = 0; i < 10; i++)
      expect((await post(u.cookie, { id: truck.id, password: `x${i}` })).statusCode).toBe(403);
    const limited = await post(u.cookie, { id: truck.id, password: 'certa' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await deviceAttrs(truck.id)).qrDriverId).toBeUndefined();
  });

  it('a vehicle another driver holds answers 409', async () => {
    const other = expectStatus<Driver>(
      await api(t.app, t.admin, 'POST', '/api/drivers', {
        name: 'Maria QR',
        uniqueId: 'qr-maria',
        attributes: {},
      }),
      200,
    );
    const maria = await createUser(t, { attributes: { [`${NS}.isQrDriverId`]: other.id } });
    await link(t, { userId: maria.id, deviceId: truck.id });
    expectStatus(await post(maria.cookie, { id: truck.id }), 200); // no QR password: none asked
    await expectRefusal(
      await post(qr.cookie, { id: truck.id, password: 'senha-do-qr' }),
      409,
      'qrDriver.deviceTaken',
    );
    expectStatus(await post(maria.cookie, { id: 0 }), 200);
    expectStatus(await post(qr.cookie, { id: truck.id, password: 'senha-do-qr' }), 200);
  });

  it('the driver cannot clear its own QR attributes through PUT /api/users', async () => {
    const me = expectStatus<Record<string, unknown> & { attributes: Record<string, unknown> }>(
      await api(t.app, qr.cookie, 'GET', '/api/session'),
      200,
    );
    const res = await api(t.app, qr.cookie, 'PUT', `/api/users/${qr.id}`, { ...me, attributes: {} });
    expect(res.statusCode).toBe(403);
    expect((await userAttrs(qr.id))[`${NS}.isQrDriverId`]).toBe(driver.id);
  });

  it('unlock on check-in sends engineResume; lock without driver sends engineStop to a stopped vehicle on check-out', async () => {
    await setDriverOptions({ qrUnlockDevice: true, qrLockWithoutDriver: true, qrLockTimeout: 0 });
    await remove(t.ctx.store.sql, 'queued_commands', { deviceId: truck.id });
    await ingestPosition(t, { uniqueId: truck.uniqueId, fixTime: new Date(Date.now() + 2000), speed: 0 });
    expectStatus(await post(qr.cookie, { id: truck.id, password: 'senha-do-qr' }), 200);
    await vi.waitFor(async () => expect(await queued(truck.id)).toEqual(['engineResume']));
    expectStatus(await post(qr.cookie, { id: 0 }), 200);
    await vi.waitFor(async () => expect(await queued(truck.id)).toEqual(['engineResume', 'engineStop']));
  });

  it('lock without driver never blocks a moving vehicle', async () => {
    await setDriverOptions({ qrLockWithoutDriver: true, qrLockTimeout: 0 });
    await remove(t.ctx.store.sql, 'queued_commands', { deviceId: truck.id });
    expectStatus(await post(qr.cookie, { id: truck.id, password: 'senha-do-qr' }), 200);
    await ingestPosition(t, { uniqueId: truck.uniqueId, fixTime: new Date(Date.now() + 3000), speed: 40 });
    expectStatus(await post(qr.cookie, { id: 0 }), 200);
    await new Promise((r) => setTimeout(r, 50));
    expect(await queued(truck.id)).toEqual([]);
  });

  it('lock / unlock buttons: only with the server setting, only on the vehicle the driver is on, never blocking a moving one', async () => {
    const engine = (type: unknown, lang = 'pt-BR') =>
      t.app.inject({
        method: 'POST',
        url: `/${NS}/qr-driver/engine`,
        headers: { cookie: qr.cookie, 'accept-language': lang, 'content-type': 'application/json' },
        payload: JSON.stringify({ type }),
      });
    await remove(t.ctx.store.sql, 'queued_commands', { deviceId: truck.id });
    await expectRefusal(await engine('engineStop'), 403, 'qrDriver.buttonsDisabled');
    const s = expectStatus<{ attributes: Record<string, unknown> }>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    expectStatus(
      await api(t.app, t.admin, 'PUT', '/api/server', {
        ...s,
        attributes: { ...s.attributes, [`${NS}.lockUnlockButtons`]: true },
      }),
      200,
    );
    await expectRefusal(await engine('engineStop', 'es'), 400, 'qrDriver.notDriving', 'es');
    await expectRefusal(await engine('reboot'), 400, 'qrDriver.engineType');

    expectStatus(await post(qr.cookie, { id: truck.id, password: 'senha-do-qr' }), 200);
    await ingestPosition(t, { uniqueId: truck.uniqueId, fixTime: new Date(Date.now() + 3500), speed: 0 });
    expectStatus(await engine('engineStop'), 200);
    expectStatus(await engine('engineResume'), 200);
    // both were recorded in the device log as the driver's engine commands
    const log = (await select(
      t.ctx.store.sql,
      'actions',
      { actionType: 'command', objectId: truck.id, userId: qr.id },
      { columns: ['attributes'] },
    )) as { attributes: string }[];
    expect(log.map((r) => (JSON.parse(r.attributes) as { type: string }).type)).toEqual([
      'engineStop',
      'engineResume',
    ]);

    await ingestPosition(t, { uniqueId: truck.uniqueId, fixTime: new Date(Date.now() + 3600), speed: 50 });
    await remove(t.ctx.store.sql, 'queued_commands', { deviceId: truck.id });
    const moving = await engine('engineStop');
    expect(moving.statusCode).toBe(403);
    expect(await queued(truck.id)).toEqual([]);
    expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', s), 200);
  });

  it('auto logout on ignition off: the driver is checked out and its sessions end', async () => {
    await setDriverOptions({ qrLogoutOnIgnitionOff: true, qrLogoutTimeout: 0 });
    const cookie = await login(t.app, qr.email, qr.password);
    expectStatus(await post(cookie, { id: truck.id, password: 'senha-do-qr' }), 200);
    await ingestPosition(t, {
      uniqueId: truck.uniqueId,
      fixTime: new Date(Date.now() + 4000),
      attributes: { ignition: true },
    });
    expect((await api(t.app, cookie, 'GET', '/api/session')).statusCode).toBe(200);
    await ingestPosition(t, {
      uniqueId: truck.uniqueId,
      fixTime: new Date(Date.now() + 5000),
      attributes: { ignition: false },
    });
    // the check-out reads the driver's options on the pool, then ends the sessions: waited for, not timed
    await vi.waitFor(async () => {
      expect((await deviceAttrs(truck.id)).qrDriverId).toBeUndefined();
      expect((await api(t.app, cookie, 'GET', '/api/session')).statusCode).toBe(404);
    });
    qr.cookie = await login(t.app, qr.email, qr.password);
  });
});
