// Commands (CONTRACT §4, §6): types, live (200) vs queued (202), delivery on the next report, restrictions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_TYPES, type Command } from '@rastro/domain';
import {
  api,
  createDevice,
  createObject,
  createUser,
  laterFixTime,
  link,
  makeTestApp,
  type CreatedUser,
  type TestApp,
} from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { count as countRows, select } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

const report = async (uniqueId: string, attributes: Record<string, unknown> = {}) => {
  const r = await getLive(t.ctx).ingest({
    uniqueId,
    protocol: 'osmand',
    fixTime: laterFixTime(),
    latitude: 1,
    longitude: 2,
    attributes,
  });
  if (!r.ok) throw new Error(r.message);
  return r;
};

const events = async (deviceId: number) =>
  (await select(
    t.ctx.store.sql,
    'events',
    { deviceId },
    { columns: ['type', 'attributes'], orderBy: ['id'] },
  )) as Array<{
    type: string;
    attributes: string;
  }>;

const waitFor = async (pred: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 100 && !(await pred()); i++) await new Promise((r) => setTimeout(r, 10));
  expect(await pred()).toBe(true);
};

describe('GET /api/commands/types', () => {
  it('lists every type without deviceId, [custom] for a device without positions, what the Traccar Client app acts on for an OsmAnd phone', async () => {
    const all = await api(t.app, t.admin, 'GET', '/api/commands/types');
    expect(all.json()).toEqual(COMMAND_TYPES.map((type) => ({ type })));
    const d = await createDevice(t);
    expect((await api(t.app, t.admin, 'GET', `/api/commands/types?deviceId=${d.id}`)).json()).toEqual([
      { type: 'custom' },
    ]);
    await report(d.uniqueId);
    const types = (await api(t.app, t.admin, 'GET', `/api/commands/types?deviceId=${d.id}`)).json() as Array<{
      type: string;
    }>;
    expect(types.map((x) => x.type)).toEqual([
      'positionSingle',
      'positionPeriodic',
      'positionStop',
      'factoryReset',
    ]);
    // over SMS: custom only
    expect(
      (await api(t.app, t.admin, 'GET', `/api/commands/types?deviceId=${d.id}&textChannel=true`)).json(),
    ).toEqual([{ type: 'custom' }]);
    // a receiver that declares its own types (the demo fleet's trackers) offers those
    const tracker = await createDevice(t);
    await report(tracker.uniqueId);
    const stop = getLive(t.ctx).addCommandSink({
      accepts: () => false,
      send: () => undefined,
      typesFor: (u) => (u === tracker.uniqueId ? ['custom', 'engineStop', 'engineResume'] : null),
    });
    try {
      expect((await api(t.app, t.admin, 'GET', `/api/commands/types?deviceId=${tracker.id}`)).json()).toEqual(
        [{ type: 'custom' }, { type: 'engineStop' }, { type: 'engineResume' }],
      );
    } finally {
      stop();
    }
    expect((await api(t.app, t.admin, 'GET', '/api/commands/types?deviceId=abc')).statusCode).toBe(400);
  });
});

describe('POST /api/commands/send', () => {
  it('sends live (200 + Command) to an online device with a receiver; its answer becomes commandResult', async () => {
    const d = await createDevice(t);
    const received: Command[] = [];
    const off = getLive(t.ctx).onCommand(d.uniqueId, (c) => {
      received.push(c);
      return 'blocked';
    });
    await report(d.uniqueId);
    const res = await api(t.app, t.admin, 'POST', '/api/commands/send', {
      deviceId: d.id,
      type: 'engineStop',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ deviceId: d.id, type: 'engineStop', id: 0 });
    expect(received.map((c) => c.type)).toEqual(['engineStop']);
    await waitFor(async () => (await events(d.id)).some((e) => e.type === 'commandResult'));
    expect(JSON.parse((await events(d.id)).find((e) => e.type === 'commandResult')!.attributes)).toEqual({
      result: 'blocked',
    });
    off();
  });

  it('queues for an offline device (202 + QueuedCommand) and delivers on the next report with queuedCommandSent', async () => {
    const d = await createDevice(t);
    const res = await api(t.app, t.admin, 'POST', '/api/commands/send', {
      deviceId: d.id,
      type: 'custom',
      attributes: { data: 'reboot' },
    });
    expect(res.statusCode).toBe(202);
    const queued = res.json() as { id: number; deviceId: number; type: string; textChannel: boolean };
    expect(queued).toMatchObject({
      deviceId: d.id,
      type: 'custom',
      textChannel: false,
      attributes: { data: 'reboot' },
    });
    expect(queued.id).toBeGreaterThan(0);
    const count = async () => await countRows(t.ctx.store.sql, 'queued_commands', { deviceId: d.id });
    expect(await count()).toBe(1);

    const received: string[] = [];
    getLive(t.ctx).onCommand(d.uniqueId, (c) => void received.push(c.type));
    const r = await report(d.uniqueId);
    expect(r.ok && r.commands.map((c) => c.id)).toEqual([queued.id]);
    expect(await count()).toBe(0);
    expect((await events(d.id)).map((e) => e.type)).toContain('queuedCommandSent');
    await waitFor(() => received.length === 1);
    // the next report carries nothing
    const again = await report(d.uniqueId);
    expect(again.ok && again.commands).toEqual([]);
  });

  it('refuses ad-hoc commands for limitCommands and readonly users but lets them send linked saved commands', async () => {
    const d = await createDevice(t);
    const saved = await createObject(t, 'commands', { type: 'engineResume', description: 'Unblock' });
    const limited = await createUser(t, { limitCommands: true });
    const readonly = await createUser(t, { readonly: true });
    for (const u of [limited, readonly] as CreatedUser[]) {
      await link(t, { userId: u.id, deviceId: d.id });
      await link(t, { userId: u.id, commandId: saved.id });
      const adhoc = await api(t.app, u.cookie, 'POST', '/api/commands/send', {
        deviceId: d.id,
        type: 'engineStop',
      });
      expect(adhoc.statusCode).toBe(400);
      expect(adhoc.body).toBe('SecurityException: Operation restricted');
      const ok = await api(t.app, u.cookie, 'POST', '/api/commands/send', { id: saved.id, deviceId: d.id });
      expect(ok.statusCode).toBe(202);
      expect(ok.json()).toMatchObject({ type: 'engineResume', deviceId: d.id });
    }
  });

  it('checks device and command access and validates the body', async () => {
    const d = await createDevice(t);
    const stranger = await createUser(t);
    const res = await api(t.app, stranger.cookie, 'POST', '/api/commands/send', {
      deviceId: d.id,
      type: 'engineStop',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: Device access denied');
    const saved = await createObject(t, 'commands', { type: 'engineStop', description: 'not yours' });
    await link(t, { userId: stranger.id, deviceId: d.id });
    const notMine = await api(t.app, stranger.cookie, 'POST', '/api/commands/send', {
      id: saved.id,
      deviceId: d.id,
    });
    expect(notMine.body).toBe('SecurityException: Command access denied');
    const bad = await api(t.app, t.admin, 'POST', '/api/commands/send', { deviceId: 'x', type: 'custom' });
    expect(bad.statusCode).toBe(400);
    expect(
      (await api(t.app, null, 'POST', '/api/commands/send', { deviceId: d.id, type: 'custom' })).statusCode,
    ).toBe(401);
  });

  it('GET /api/commands/send?deviceId= lists saved commands linked to both the caller and the device', async () => {
    const d = await createDevice(t);
    await report(d.uniqueId);
    const u = await createUser(t);
    await link(t, { userId: u.id, deviceId: d.id });
    const both = await createObject(t, 'commands', { type: 'positionSingle', description: 'both' });
    const userOnly = await createObject(t, 'commands', { type: 'positionSingle', description: 'user only' });
    const deviceOnly = await createObject(t, 'commands', {
      type: 'positionSingle',
      description: 'device only',
    });
    await link(t, { userId: u.id, commandId: both.id });
    await link(t, { deviceId: d.id, commandId: both.id });
    await link(t, { userId: u.id, commandId: userOnly.id });
    await link(t, { deviceId: d.id, commandId: deviceOnly.id });
    const res = await api(t.app, u.cookie, 'GET', `/api/commands/send?deviceId=${d.id}`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as Array<{ id: number }>).map((c) => c.id)).toEqual([both.id]);
  });
});
