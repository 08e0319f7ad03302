// Computed attributes through the real live core (CONTRACT §7 order) and POST /api/attributes/computed/test
// (CONTRACT §4): device- and group-linked attributes, priority order, type coercion, field targets, admin only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Position } from '@rastro/domain';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  ingestPosition,
  link,
  makeTestApp,
  type TestApp,
} from './helpers/index.ts';
import { getLive, type IncomingPosition } from '../src/live/ingest.ts';
import { first } from './support/testSql.ts';

let t: TestApp;
const pushed: Position[] = [];
beforeAll(async () => {
  t = await makeTestApp();
  getLive(t.ctx).subscribe({ positions: (ps) => pushed.push(...ps) });
});
afterAll(async () => {
  await t.close();
});

const T0 = Date.parse('2024-05-01T12:00:00Z');
let seconds = 0;

async function send(uniqueId: string, extra: Partial<IncomingPosition> = {}): Promise<Position> {
  return ingestPosition(t, {
    uniqueId,
    fixTime: new Date(T0 + ++seconds * 1000),
    latitude: -23.55,
    longitude: -46.63,
    ...extra,
  });
}

async function computed(
  attribute: string,
  expression: string,
  type: 'number' | 'string' | 'boolean',
  priority = 0,
): Promise<number> {
  const a = await createObject(t, 'attributes/computed', {
    description: `${attribute} = ${expression}`,
    attribute,
    expression,
    type,
    priority,
  });
  return a.id;
}

async function stored(
  positionId: number,
): Promise<{ speed: number; valid: number; attributes: Record<string, unknown> }> {
  const row = (await first(
    t.ctx.store.sql,
    'positions',
    { id: positionId },
    { columns: ['speed', 'valid', 'attributes'] },
  )) as { speed: number; valid: number; attributes: string };
  return { ...row, attributes: JSON.parse(row.attributes) as Record<string, unknown> };
}

describe('computed attributes in the live core', () => {
  it('an OsmAnd position gets a device-linked value, stored and pushed', async () => {
    const d = await createDevice(t);
    const id = await computed('fuel', 'adc1 * 0.024', 'number');
    await link(t, { deviceId: d.id, attributeId: id });
    const res = await t.app.inject({
      method: 'POST',
      url: `/?id=${d.uniqueId}&lat=-23.55&lon=-46.63&timestamp=1714564800&adc1=2500&ignition=true`,
    });
    expect(res.statusCode).toBe(200);
    const latest = (await getLive(t.ctx).latestPositionAsync(d.id))!;
    // 2500 × 0.024 = 60
    expect(latest.attributes.fuel).toBe(60);
    expect((await stored(latest.id)).attributes.fuel).toBe(60);
    expect(pushed.find((p) => p.id === latest.id)?.attributes.fuel).toBe(60);
    // the REST API returns it too
    const [viaApi] = expectStatus<Position[]>(
      await api(t.app, t.admin, 'GET', `/api/positions?id=${latest.id}`),
      200,
    );
    expect(viaApi.attributes.fuel).toBe(60);
  });

  it('runs higher priority first; later attributes see earlier results', async () => {
    const d = await createDevice(t);
    // created in the "wrong" order on purpose: priority, not id, decides
    const pct = await computed('fuelPct', 'litres / 80 * 100', 'number', 1);
    const litres = await computed('litres', 'adc1 / 50', 'number', 10);
    const first = await computed('label', "'a'", 'string', 5);
    const second = await computed('label', "label + 'b'", 'string', 0);
    for (const attributeId of [pct, litres, first, second]) await link(t, { deviceId: d.id, attributeId });
    const p = await send(d.uniqueId, { attributes: { adc1: 2000 } });
    // 2000 / 50 = 40 litres; 40 / 80 × 100 = 50 %
    expect(p.attributes.litres).toBe(40);
    expect(p.attributes.fuelPct).toBe(50);
    expect(p.attributes.label).toBe('ab');
  });

  it('applies attributes linked to the device group and its parent group', async () => {
    const parent = await createObject(t, 'groups', { name: 'Fleet' });
    const child = await createObject(t, 'groups', { name: 'Trucks', groupId: parent.id });
    const d = await createDevice(t, { groupId: child.id });
    const onParent = await computed('volts', 'power / 1000', 'number');
    const onChild = await computed('lowBattery', 'power < 11500', 'boolean');
    await link(t, { groupId: parent.id, attributeId: onParent });
    await link(t, { groupId: child.id, attributeId: onChild });
    const other = await createDevice(t);
    const p = await send(d.uniqueId, { attributes: { power: 12600 } });
    expect(p.attributes.volts).toBe(12.6);
    expect(p.attributes.lowBattery).toBe(false);
    // a device outside the groups is untouched
    const q = await send(other.uniqueId, { attributes: { power: 12600 } });
    expect(q.attributes).not.toHaveProperty('volts');
    expect(q.attributes).not.toHaveProperty('lowBattery');
  });

  it('coerces to the declared type, skips what cannot be coerced and keeps the position', async () => {
    const d = await createDevice(t);
    const ids = [
      await computed('doorOpen', 'io239', 'boolean'), // 1 → true
      await computed('rpmText', 'rpm', 'string'), // 2100 → "2100"
      await computed('temp', 'tempText', 'number'), // "21.5" → 21.5
      await computed('bad', 'driver', 'number'), // "Ana" is not a number: skipped
      await computed('broken', 'adc1 / 0', 'number'), // division by zero: skipped
      await computed('missing', 'nosuch', 'string'), // null: skipped
    ];
    for (const attributeId of ids) await link(t, { deviceId: d.id, attributeId });
    const p = await send(d.uniqueId, {
      attributes: { io239: 1, rpm: 2100, tempText: '21.5', driver: 'Ana', adc1: 5 },
    });
    expect(p.attributes.doorOpen).toBe(true);
    expect(p.attributes.rpmText).toBe('2100');
    expect(p.attributes.temp).toBe(21.5);
    expect(p.attributes).not.toHaveProperty('bad');
    expect(p.attributes).not.toHaveProperty('broken');
    expect(p.attributes).not.toHaveProperty('missing');
    expect((await stored(p.id)).attributes.doorOpen).toBe(true);
  });

  it('writes position fields (speed, valid) and runs after motion, before engine hours', async () => {
    const d = await createDevice(t);
    const ids = [
      await computed('speed', 'speed * 0.5', 'number'),
      await computed('valid', 'sat >= 4', 'boolean'),
      await computed('wasMoving', 'motion', 'boolean'),
      await computed('ignition', "io1 == 'on'", 'boolean'),
    ];
    for (const attributeId of ids) await link(t, { deviceId: d.id, attributeId });
    const p1 = await send(d.uniqueId, { speed: 30, attributes: { sat: 3, io1: 'on' } });
    expect(p1.speed).toBe(15);
    expect(p1.valid).toBe(false);
    // motion was computed from the device's 30 kn before the computed speed
    expect(p1.attributes.wasMoving).toBe(true);
    expect(await stored(p1.id)).toMatchObject({ speed: 15, valid: 0 });
    // engine hours use the computed ignition: 60 s with ignition on in both positions = 60,000 ms
    const p2 = await send(d.uniqueId, {
      fixTime: new Date(Date.parse(p1.fixTime) + 60_000),
      speed: 0,
      attributes: { sat: 9, io1: 'on' },
    });
    expect(p2.valid).toBe(true);
    expect(p2.attributes.wasMoving).toBe(false);
    expect(p2.attributes.hours).toBe(60_000);
  });

  it('an unlinked attribute does nothing; unlinking stops it', async () => {
    const d = await createDevice(t);
    const id = await computed('double', 'adc1 * 2', 'number');
    expect((await send(d.uniqueId, { attributes: { adc1: 4 } })).attributes).not.toHaveProperty('double');
    await link(t, { deviceId: d.id, attributeId: id });
    expect((await send(d.uniqueId, { attributes: { adc1: 4 } })).attributes.double).toBe(8);
    expectStatus(
      await api(t.app, t.admin, 'DELETE', '/api/permissions', { deviceId: d.id, attributeId: id }),
      204,
    );
    expect((await send(d.uniqueId, { attributes: { adc1: 4 } })).attributes).not.toHaveProperty('double');
  });
});

describe('POST /api/attributes/computed/test', () => {
  const body = (expression: string, type = 'number') => ({
    description: 'test',
    attribute: 'x',
    expression,
    type,
    priority: 0,
  });

  it('evaluates against the latest position: JSON numbers and booleans, text for strings, 204 for null', async () => {
    const d = await createDevice(t);
    await send(d.uniqueId, { speed: 40, attributes: { adc1: 2500, driver: 'Ana' } });
    const url = `/api/attributes/computed/test?deviceId=${d.id}`;
    const num = await api(t.app, t.admin, 'POST', url, body('adc1 * 0.024'));
    expect(num.statusCode).toBe(200);
    expect(num.headers['content-type']).toContain('application/json');
    expect(num.json()).toBe(60);
    const bool = await api(t.app, t.admin, 'POST', url, body('speed > 30', 'boolean'));
    expect(bool.statusCode).toBe(200);
    expect(bool.json()).toBe(true);
    const text = await api(t.app, t.admin, 'POST', url, body("'Driver ' + driver", 'string'));
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-type']).toContain('text/plain');
    expect(text.body).toBe('Driver Ana');
    const coerced = await api(t.app, t.admin, 'POST', url, body('adc1', 'string'));
    expect(coerced.body).toBe('2500');
    expect((await api(t.app, t.admin, 'POST', url, body('nosuch'))).statusCode).toBe(204);
  });

  it('answers 204 for a device without positions', async () => {
    const d = await createDevice(t);
    const res = await api(
      t.app,
      t.admin,
      'POST',
      `/api/attributes/computed/test?deviceId=${d.id}`,
      body('1'),
    );
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
  });

  it('answers 400 with the parse or evaluation error', async () => {
    const d = await createDevice(t);
    await send(d.uniqueId, { attributes: { driver: 'Ana' } });
    const url = `/api/attributes/computed/test?deviceId=${d.id}`;
    const parseErr = await api(t.app, t.admin, 'POST', url, body('speed * (2'));
    expect(parseErr.statusCode).toBe(400);
    expect(parseErr.body).toBe(
      'IllegalArgumentException: expression: expected ")" but found "end of expression" at position 11',
    );
    const evalErr = await api(t.app, t.admin, 'POST', url, body('driver - 1'));
    expect(evalErr.statusCode).toBe(400);
    expect(evalErr.body).toContain('"Ana" is not a number');
    const typeErr = await api(t.app, t.admin, 'POST', url, body('driver'));
    expect(typeErr.statusCode).toBe(400);
    expect(typeErr.body).toContain('result "Ana" is not a number');
    const badType = await api(t.app, t.admin, 'POST', url, body('1', 'date'));
    expect(badType.statusCode).toBe(400);
    expect(badType.body).toContain('type must be string, number or boolean');
    const noBody = await api(t.app, t.admin, 'POST', url);
    expect(noBody.statusCode).toBe(400);
    const noDevice = await api(t.app, t.admin, 'POST', '/api/attributes/computed/test', body('1'));
    expect(noDevice.statusCode).toBe(400);
    expect(noDevice.body).toContain('deviceId');
    const badId = await api(t.app, t.admin, 'POST', '/api/attributes/computed/test?deviceId=x1', body('1'));
    expect(badId.statusCode).toBe(400);
    const unknown = await api(
      t.app,
      t.admin,
      'POST',
      '/api/attributes/computed/test?deviceId=999999',
      body('1'),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toBe('SecurityException: Device access denied');
  });

  it('is admin only', async () => {
    const u = await createUser(t);
    const d = await createDevice(t, {}, u.cookie);
    await send(d.uniqueId, { attributes: { adc1: 1 } });
    const res = await api(
      t.app,
      u.cookie,
      'POST',
      `/api/attributes/computed/test?deviceId=${d.id}`,
      body('adc1'),
    );
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: Administrator access required');
    const anonymous = await api(
      t.app,
      null,
      'POST',
      `/api/attributes/computed/test?deviceId=${d.id}`,
      body('1'),
    );
    expect(anonymous.statusCode).toBe(401);
  });
});
