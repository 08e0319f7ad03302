// The engine-block interlock (live/interlock.ts, rule in packages/domain engineInterlock.ts): an engineStop to a
// device whose last fix is at most 5 minutes old and faster than {ns}.blockMaxSpeed (20 km/h) is refused with a
// 403 naming the speed and the limit, nothing sent or queued; an administrator's `attributes.force` overrides;
// every engine command (sent, queued, forced, refused) is written to the device log with the user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kmhToKnots, type Command } from '@rastro/domain';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  ingestPosition,
  link,
  makeTestApp,
  type CreatedUser,
  type TestApp,
} from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { count, first, select } from '../support/testSql.ts';

let t: TestApp;
let operator: CreatedUser;
beforeAll(async () => {
  t = await makeTestApp();
  operator = await createUser(t);
});
afterAll(async () => {
  await t.close();
});

type Dev = { id: number; uniqueId: string; name: string };

/** A device of the operator whose last position is `kmh` fast, `ageMs` old. */
async function deviceAt(kmh: number, ageMs = 10_000): Promise<Dev> {
  const d = await createDevice(t);
  await link(t, { userId: operator.id, deviceId: d.id });
  await ingestPosition(t, {
    uniqueId: d.uniqueId,
    fixTime: new Date(Date.now() - ageMs),
    speed: kmhToKnots(kmh),
  });
  return d;
}

const send = (cookie: string, body: Record<string, unknown>, query = '', lang = 'en-US') =>
  t.app.inject({
    method: 'POST',
    url: `/api/commands/send${query}`,
    headers: { cookie, 'accept-language': lang },
    payload: body,
  });

const block = (cookie: string, d: Dev, attributes: Record<string, unknown> = {}) =>
  send(cookie, { deviceId: d.id, type: 'engineStop', attributes });

const queuedCount = async (deviceId: number) => await count(t.ctx.store.sql, 'queued_commands', { deviceId });

type LogRow = { userId: number; actionType: string; objectType: string; attributes: string };
const deviceLog = async (deviceId: number) =>
  (
    (await select(
      t.ctx.store.sql,
      'actions',
      { objectType: 'device', objectId: deviceId, actionType: 'command' },
      { columns: ['userId', 'actionType', 'objectType', 'attributes'], orderBy: ['id'] },
    )) as LogRow[]
  ).map((r): Record<string, unknown> => ({
    userId: r.userId,
    ...(JSON.parse(r.attributes) as Record<string, unknown>),
  }));

const adminId = async () =>
  ((await first(t.ctx.store.sql, 'users', { email: 'admin' }, { columns: ['id'] })) as { id: number }).id;

describe('engine-block interlock', () => {
  it('30 km/h fresh: 403 naming the speed and the limit, nothing queued, the refusal logged with the user', async () => {
    const d = await deviceAt(30);
    const res = await block(operator.cookie, d);
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(
      `Engine block refused for ${d.name}: it is moving at 30 km/h, above the 20 km/h limit for blocking`,
    );
    expect(await queuedCount(d.id)).toBe(0);
    expect(await deviceLog(d.id)).toEqual([
      { userId: operator.id, type: 'engineStop', outcome: 'refused', speed: 30, limit: 20 },
    ]);
    // in the caller's language
    const pt = await send(operator.cookie, { deviceId: d.id, type: 'engineStop' }, '', 'pt-BR');
    expect(pt.statusCode).toBe(403);
    expect(pt.body).toContain('o veículo está a 30 km/h, acima do limite de 20 km/h');
  });

  it('boundaries: 20 km/h is sent, 20.1 km/h refused (the message keeps the decimal)', async () => {
    const at20 = await deviceAt(20);
    expect((await block(operator.cookie, at20)).statusCode).toBe(202);
    const over = await deviceAt(20.1);
    const res = await block(operator.cookie, over, {});
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('20.1 km/h');
  });

  it('30 km/h but 6 minutes old: sent (queued for the offline device), logged as queued with the speed and its age', async () => {
    const d = await deviceAt(30, 6 * 60_000);
    expect((await block(operator.cookie, d)).statusCode).toBe(202);
    expect(await queuedCount(d.id)).toBe(1);
    const [entry] = await deviceLog(d.id);
    expect(entry).toEqual({
      userId: operator.id,
      type: 'engineStop',
      outcome: 'queued',
      speed: 30,
      speedAge: expect.any(Number),
    });
    // seconds since the fix: 6 minutes, plus the moments the request took
    expect(entry!.speedAge).toBeGreaterThanOrEqual(360);
    expect(entry!.speedAge).toBeLessThan(420);
  });

  it('15 km/h fresh: sent live to a connected device and logged as sent', async () => {
    const d = await deviceAt(15);
    const received: Command[] = [];
    const off = getLive(t.ctx).onCommand(d.uniqueId, (c) => {
      received.push(c);
      return 'ok';
    });
    try {
      expect((await block(operator.cookie, d)).statusCode).toBe(200);
    } finally {
      off();
    }
    expect(received.map((c) => c.type)).toEqual(['engineStop']);
    expect(await deviceLog(d.id)).toEqual([{ userId: operator.id, type: 'engineStop', outcome: 'sent' }]);
  });

  it('a device without any position is not blocked', async () => {
    const d = await createDevice(t);
    expect((await block(t.admin, d)).statusCode).toBe(202);
  });

  it('administrator with force: sent, logged as forced with the speed; the device never sees the flag', async () => {
    const d = await deviceAt(30);
    const received: Command[] = [];
    const off = getLive(t.ctx).onCommand(d.uniqueId, (c) => {
      received.push(c);
      return 'ok';
    });
    try {
      expect((await block(t.admin, d)).statusCode).toBe(403);
      expect(received).toEqual([]);
      const res = await block(t.admin, d, { force: true });
      expect(res.statusCode).toBe(200);
      expect((res.json() as Command).attributes).toEqual({});
    } finally {
      off();
    }
    expect(received).toHaveLength(1);
    expect(received[0]!.attributes).not.toHaveProperty('force');
    expect(await deviceLog(d.id)).toEqual([
      { userId: await adminId(), type: 'engineStop', outcome: 'refused', speed: 30, limit: 20 },
      { userId: await adminId(), type: 'engineStop', outcome: 'forced', speed: 30, limit: 20 },
    ]);
  });

  it('non-administrator with force: refused all the same, the ignored force noted in the log', async () => {
    const d = await deviceAt(30);
    const res = await block(operator.cookie, d, { force: true });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('30 km/h');
    expect(await queuedCount(d.id)).toBe(0);
    expect(await deviceLog(d.id)).toEqual([
      {
        userId: operator.id,
        type: 'engineStop',
        outcome: 'refused',
        speed: 30,
        limit: 20,
        forceIgnored: true,
      },
    ]);
  });

  it('limit raised to 40 through PUT /api/server: 30 km/h is sent; 0 blocks any movement', async () => {
    const server = expectStatus<{ attributes: Record<string, unknown> }>(
      await api(t.app, t.admin, 'GET', '/api/server'),
      200,
    );
    const put = async (attributes: Record<string, unknown>) =>
      expectStatus(await api(t.app, t.admin, 'PUT', '/api/server', { ...server, attributes }), 200);
    try {
      await put({ ...server.attributes, 'rastro.blockMaxSpeed': 40 });
      const d = await deviceAt(30);
      expect((await block(operator.cookie, d)).statusCode).toBe(202);
      await put({ ...server.attributes, 'rastro.blockMaxSpeed': 0 });
      const slow = await deviceAt(1);
      const res = await block(operator.cookie, slow);
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('above the 0 km/h limit');
      expect(await deviceLog(slow.id)).toEqual([
        { userId: operator.id, type: 'engineStop', outcome: 'refused', speed: 1, limit: 0 },
      ]);
    } finally {
      await put(server.attributes);
    }
  });

  it('a saved engineStop command is refused the same way', async () => {
    const d = await deviceAt(30);
    const saved = await createObject(t, 'commands', {
      description: 'Block',
      type: 'engineStop',
      attributes: {},
    });
    await link(t, { userId: operator.id, commandId: saved.id });
    const res = await send(operator.cookie, { id: saved.id, deviceId: d.id });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('30 km/h');
    expect(await queuedCount(d.id)).toBe(0);
  });

  it('a group send with one fast device is refused as a whole: nothing queued for any', async () => {
    const g = await createObject(t, 'groups', { name: `Fleet ${Date.now()}` });
    const fast = await deviceAt(50);
    const slow = await deviceAt(5);
    for (const d of [fast, slow]) {
      const full = expectStatus<Record<string, unknown>>(
        await api(t.app, t.admin, 'GET', `/api/devices/${d.id}`),
        200,
      );
      expectStatus(await api(t.app, t.admin, 'PUT', `/api/devices/${d.id}`, { ...full, groupId: g.id }), 200);
    }
    const res = await send(t.admin, { type: 'engineStop' }, `?groupId=${g.id}`);
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(`${fast.name}: it is moving at 50 km/h`);
    expect((await queuedCount(fast.id)) + (await queuedCount(slow.id))).toBe(0);
    expect(await deviceLog(fast.id)).toEqual([
      { userId: await adminId(), type: 'engineStop', outcome: 'refused', speed: 50, limit: 20 },
    ]);
    expect(await deviceLog(slow.id)).toEqual([]);
    // with force the administrator blocks both, each logged
    expect(
      (await send(t.admin, { type: 'engineStop', attributes: { force: true } }, `?groupId=${g.id}`))
        .statusCode,
    ).toBe(202);
    expect((await deviceLog(fast.id)).map((r) => r.outcome)).toEqual(['refused', 'forced']);
    expect((await deviceLog(slow.id)).map((r) => r.outcome)).toEqual(['queued']);
  });

  it('engineResume is never blocked and is logged; other commands are not logged', async () => {
    const d = await deviceAt(80);
    expect((await send(operator.cookie, { deviceId: d.id, type: 'engineResume' })).statusCode).toBe(202);
    expect((await send(operator.cookie, { deviceId: d.id, type: 'positionSingle' })).statusCode).toBe(202);
    expect(await deviceLog(d.id)).toEqual([{ userId: operator.id, type: 'engineResume', outcome: 'queued' }]);
  });

  it('the entries show in the device logs (GET /rastro/devices/:id/logs) with the user e-mail', async () => {
    const d = await deviceAt(30);
    await block(operator.cookie, d);
    await block(t.admin, d, { force: true });
    const now = Date.now();
    const range = `from=${new Date(now - 3600_000).toISOString()}&to=${new Date(now + 60_000).toISOString()}`;
    const logs = expectStatus<
      Array<{ userEmail: string; actionType: string; attributes: Record<string, unknown> }>
    >(await api(t.app, t.admin, 'GET', `/rastro/devices/${d.id}/logs?${range}`), 200);
    const commands = logs.filter((l) => l.actionType === 'command');
    expect(commands.map((l) => [l.userEmail, l.attributes.outcome])).toEqual([
      ['admin', 'forced'],
      [operator.email, 'refused'],
    ]);
  });
});
