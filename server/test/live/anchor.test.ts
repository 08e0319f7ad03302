// Anchor (SPEC §3, §4): the web creates a 150 m circle (isAnchor, deviceId) and links it to the device; leaving
// it raises an alarm event ('tow' with the ignition off, 'geofence' with it on) that web notifications deliver.
// Also: the API refuses anchors and engine commands to readonly / limitCommands users.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildAnchorGeofence, type Event } from '@rastro/domain';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  laterFixTime,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { getLiveServices } from '../../src/live/index.ts';
import { anchorAlarmFor, isAnchorAttributes } from '../../src/live/anchor.ts';
import { select } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

// 0.01° of latitude ≈ 1113 m: far outside the 150 m anchor; 0.0005° ≈ 56 m: inside.
const HOME = { latitude: -23.55, longitude: -46.63 };
const report = async (uniqueId: string, latitude: number, attributes: Record<string, unknown> = {}) => {
  const r = await getLive(t.ctx).ingest({
    uniqueId,
    protocol: 'osmand',
    fixTime: laterFixTime(),
    latitude,
    longitude: HOME.longitude,
    attributes,
  });
  if (!r.ok) throw new Error(r.message);
  return r;
};

const events = async (deviceId: number) =>
  (
    (await select(
      t.ctx.store.sql,
      'events',
      { deviceId },
      { columns: ['type', 'geofenceId', 'attributes'], orderBy: ['id'] },
    )) as Array<{ type: string; geofenceId: number; attributes: string }>
  ).map((e) => ({
    type: e.type,
    geofenceId: e.geofenceId,
    attributes: JSON.parse(e.attributes) as Record<string, unknown>,
  }));

const waitFor = async (pred: () => boolean | Promise<boolean>) => {
  for (let i = 0; i < 200 && !(await pred()); i++) await new Promise((r) => setTimeout(r, 10));
  expect(await pred()).toBe(true);
};

/** What the web does when anchoring: POST the geofence (id 0), then link it to the device. */
async function anchor(cookie: string, device: { id: number; name: string }) {
  const body = { ...buildAnchorGeofence(device, HOME), id: 0 };
  const res = await api(t.app, cookie, 'POST', '/api/geofences', body);
  const g = expectStatus<{ id: number; name: string; area: string; attributes: Record<string, unknown> }>(
    res,
    200,
  );
  expectStatus(
    await api(t.app, cookie, 'POST', '/api/permissions', { deviceId: device.id, geofenceId: g.id }),
    204,
  );
  return g;
}

describe('anchor helpers', () => {
  it('recognises anchor attributes and picks tow vs geofence by ignition', () => {
    expect(isAnchorAttributes({ isAnchor: true })).toBe(true);
    expect(isAnchorAttributes({ isAnchor: 'true' })).toBe(true);
    expect(isAnchorAttributes({ isAnchor: false })).toBe(false);
    expect(isAnchorAttributes({})).toBe(false);
    expect(anchorAlarmFor({ ignition: false })).toBe('tow');
    expect(anchorAlarmFor({})).toBe('tow');
    expect(anchorAlarmFor({ ignition: true })).toBe('geofence');
  });
});

describe('anchor geofence and alarm', () => {
  it('a user anchors their device (150 m circle, calendarId 0, isAnchor, deviceId) and leaving it with the ignition off raises alarm tow, delivered on the web channel', async () => {
    const owner = await createUser(t);
    const d = await createDevice(t, {}, owner.cookie);
    await report(d.uniqueId, HOME.latitude, { ignition: false });
    const g = await anchor(owner.cookie, d);
    expect(g.name).toBe(`Anchor ${d.name}`);
    expect(g.area).toBe(`CIRCLE (${HOME.latitude} ${HOME.longitude}, 150)`);
    expect(g.attributes).toMatchObject({ deviceId: d.id, isAnchor: true });
    // the device sees its anchor
    const linked = expectStatus<Array<{ id: number }>>(
      await api(t.app, owner.cookie, 'GET', `/api/geofences?deviceId=${d.id}`),
      200,
    );
    expect(linked.map((x) => x.id)).toEqual([g.id]);

    // a web alarm notification for the owner
    const n = await createObject(
      t,
      'notifications',
      { type: 'alarm', notificators: 'web', attributes: { alarms: 'tow,geofence' } },
      owner.cookie,
    );
    await link(t, { deviceId: d.id, notificationId: n.id }, owner.cookie);
    const hub = getLiveServices(t.ctx).hub;
    const pushed: Array<{ userId: number; event: Event }> = [];
    const spy = vi.spyOn(hub, 'pushEvent').mockImplementation((userId, event) => {
      pushed.push({ userId, event });
    });
    try {
      await report(d.uniqueId, HOME.latitude + 0.0005, { ignition: false }); // inside: enter
      await report(d.uniqueId, HOME.latitude + 0.01, { ignition: false }); // ~1.1 km away: exit
      await waitFor(async () => (await events(d.id)).some((e) => e.type === 'alarm'));
      const list = await events(d.id);
      expect(list.filter((e) => e.geofenceId === g.id).map((e) => e.type)).toEqual([
        'geofenceEnter',
        'geofenceExit',
        'alarm',
      ]);
      expect(list.find((e) => e.type === 'alarm')?.attributes).toMatchObject({ alarm: 'tow' });
      await waitFor(() => pushed.some((p) => p.event.type === 'alarm'));
      const toOwner = pushed.filter((p) => p.userId === owner.id && p.event.type === 'alarm');
      expect(toOwner).toHaveLength(1);
      expect(toOwner[0].event.attributes).toMatchObject({ alarm: 'tow' });
      expect(String(toOwner[0].event.attributes.message)).toContain('alarme: reboque'); // pt-BR, the default language;
    } finally {
      spy.mockRestore();
    }
  });

  it('leaving with the ignition on raises alarm geofence; disabling (DELETE) the anchor stops the alarms', async () => {
    const d = await createDevice(t);
    await report(d.uniqueId, HOME.latitude, { ignition: true });
    const g = await anchor(t.admin, d);
    await report(d.uniqueId, HOME.latitude, { ignition: true });
    await report(d.uniqueId, HOME.latitude + 0.01, { ignition: true });
    await waitFor(async () => (await events(d.id)).some((e) => e.type === 'alarm'));
    expect((await events(d.id)).filter((e) => e.type === 'alarm').map((e) => e.attributes.alarm)).toEqual([
      'geofence',
    ]);

    expectStatus(await api(t.app, t.admin, 'DELETE', `/api/geofences/${g.id}`), 204);
    await report(d.uniqueId, HOME.latitude, { ignition: true });
    await report(d.uniqueId, HOME.latitude + 0.01, { ignition: true });
    await new Promise((r) => setTimeout(r, 50));
    expect((await events(d.id)).filter((e) => e.type === 'alarm')).toHaveLength(1);
  });

  it('leaving an ordinary geofence raises no alarm', async () => {
    const d = await createDevice(t);
    const g = await createObject(t, 'geofences', {
      name: 'Depot',
      area: `CIRCLE (${HOME.latitude} ${HOME.longitude}, 150)`,
    });
    await link(t, { deviceId: d.id, geofenceId: g.id });
    await report(d.uniqueId, HOME.latitude);
    await report(d.uniqueId, HOME.latitude);
    await report(d.uniqueId, HOME.latitude + 0.01);
    await waitFor(async () => (await events(d.id)).some((e) => e.type === 'geofenceExit'));
    await new Promise((r) => setTimeout(r, 50));
    expect((await events(d.id)).some((e) => e.type === 'alarm')).toBe(false);
  });
});

describe('refusals for restricted users', () => {
  it('a readonly user cannot create an anchor geofence nor send engineStop/engineResume', async () => {
    const ro = await createUser(t, { readonly: true });
    const d = await createDevice(t);
    await link(t, { userId: ro.id, deviceId: d.id });
    const res = await api(t.app, ro.cookie, 'POST', '/api/geofences', {
      ...buildAnchorGeofence(d, HOME),
      id: 0,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/^SecurityException/);
    for (const type of ['engineStop', 'engineResume']) {
      const r = await api(t.app, ro.cookie, 'POST', '/api/commands/send', {
        id: 0,
        deviceId: d.id,
        type,
        textChannel: false,
        description: null,
        attributes: {},
      });
      expect(r.statusCode).toBe(400);
      expect(r.body).toBe('SecurityException: Operation restricted');
    }
  });

  it('a limitCommands user cannot send engineStop; an ordinary user gets 202 (queued) for an offline device', async () => {
    const limited = await createUser(t, { limitCommands: true });
    const plain = await createUser(t);
    const d = await createDevice(t);
    await link(t, { userId: limited.id, deviceId: d.id });
    await link(t, { userId: plain.id, deviceId: d.id });
    const body = {
      id: 0,
      deviceId: d.id,
      type: 'engineStop',
      textChannel: false,
      description: null,
      attributes: {},
    };
    const r = await api(t.app, limited.cookie, 'POST', '/api/commands/send', body);
    expect(r.statusCode).toBe(400);
    expect(r.body).toBe('SecurityException: Operation restricted');
    const ok = await api(t.app, plain.cookie, 'POST', '/api/commands/send', body);
    expect(ok.statusCode).toBe(202);
    expect(ok.json()).toMatchObject({ deviceId: d.id, type: 'engineStop' });
  });
});
