import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { ICS, SAMPLES } from '../helpers/samples.ts';
import { count, select, update } from '../support/testSql.ts';

type Obj = { id: number } & Record<string, unknown>;
const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+00:00$/;

describe('generic CRUD (CONTRACT §1, §4)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  for (const [path, sample] of Object.entries(SAMPLES)) {
    it(`${path}: create links the creator, get, full-replacement update, delete removes links`, async () => {
      const created = await createObject(t, path, sample());
      expect(created.id).toBeGreaterThan(0);
      if (path !== 'attributes/computed') expect(created.attributes).toBeTypeOf('object');
      else expect(created).not.toHaveProperty('attributes');
      const type = path === 'attributes/computed' ? 'attribute' : path.replace(/s$/, '');
      const linked = await select(
        t.ctx.store.sql,
        'links',
        { ownerType: 'user', propertyType: type, propertyId: created.id },
        { columns: ['ownerId'] },
      );
      expect(linked).toEqual([{ ownerId: 1 }]);

      const got = expectStatus<Obj>(await api(t.app, t.admin, 'GET', `/api/${path}/${created.id}`), 200);
      expect(got).toEqual(created);
      const list = expectStatus<Obj[]>(await api(t.app, t.admin, 'GET', `/api/${path}`), 200);
      expect(list.map((o) => o.id)).toContain(created.id);

      // PUT replaces everything: omitted attributes become {}.
      const body: Record<string, unknown> = { ...sample(), id: created.id };
      delete body.attributes;
      if (path === 'devices') body.uniqueId = created.uniqueId as string;
      if (path === 'drivers') body.uniqueId = created.uniqueId as string;
      // An alarm rule needs its alarms (SPEC §5): the attribute-less replacement is another type.
      if (path === 'notifications') body.type = 'deviceOnline';
      const updated = expectStatus<Obj>(
        await api(t.app, t.admin, 'PUT', `/api/${path}/${created.id}`, body),
        200,
      );
      if (path !== 'attributes/computed') expect(updated.attributes).toEqual({});

      const mismatch = await api(t.app, t.admin, 'PUT', `/api/${path}/${created.id}`, {
        ...body,
        id: created.id + 1000,
      });
      expect(mismatch.statusCode).toBe(400);

      expect((await api(t.app, t.admin, 'DELETE', `/api/${path}/${created.id}`)).statusCode).toBe(204);
      expect(await count(t.ctx.store.sql, 'links', { propertyType: type, propertyId: created.id })).toBe(0);
      const gone = await api(t.app, t.admin, 'GET', `/api/${path}/${created.id}`);
      expect(gone.statusCode).toBe(404);
    });
  }

  it('device JSON shape: nulls present, status offline, groupId/positionId 0, dates formatted', async () => {
    const d = await createDevice(t, {
      name: 'Van',
      uniqueId: '  860000000000001  ',
      expirationTime: '2030-01-02T03:04:05Z',
    });
    expect(d).toEqual({
      id: d.id,
      attributes: {},
      groupId: 0,
      calendarId: 0,
      name: 'Van',
      uniqueId: '860000000000001',
      status: 'offline',
      lastUpdate: null,
      positionId: 0,
      phone: null,
      model: null,
      contact: null,
      category: null,
      disabled: false,
      expirationTime: '2030-01-02T03:04:05.000+00:00',
    });
    expect(d.expirationTime).toMatch(DATE);
  });

  it('device PUT ignores status, lastUpdate and positionId; uniqueId must be unique', async () => {
    const d = await createDevice(t);
    await update(
      t.ctx.store.sql,
      'devices',
      { status: 'online', lastUpdate: '2024-05-01T12:34:56.000Z', positionId: 42 },
      { id: d.id },
    );
    const put = expectStatus<Obj>(
      await api(t.app, t.admin, 'PUT', `/api/devices/${d.id}`, {
        ...d,
        name: 'Renamed',
        status: 'unknown',
        lastUpdate: null,
        positionId: 7,
      }),
      200,
    );
    expect(put).toMatchObject({
      name: 'Renamed',
      status: 'online',
      lastUpdate: '2024-05-01T12:34:56.000+00:00',
      positionId: 42,
    });
    const dup = await api(t.app, t.admin, 'POST', '/api/devices', {
      name: 'Dup',
      uniqueId: ` ${d.uniqueId}`,
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.body).toContain('Duplicate uniqueId');
  });

  it('validates bodies with clear 400 texts', async () => {
    const noName = await api(t.app, t.admin, 'POST', '/api/devices', { uniqueId: 'x1' });
    expect(noName.statusCode).toBe(400);
    expect(noName.body).toMatch(/^IllegalArgumentException: name: /);
    const badType = await api(t.app, t.admin, 'POST', '/api/groups', { name: 'G', groupId: 'abc' });
    expect(badType.statusCode).toBe(400);
    expect(badType.body).toContain('groupId');
    const notObject = await api(t.app, t.admin, 'POST', '/api/groups', [1, 2]);
    expect(notObject.statusCode).toBe(400);
    const badNotif = await api(t.app, t.admin, 'POST', '/api/notifications', {
      type: 'teleport',
      notificators: 'web',
    });
    expect(badNotif.statusCode).toBe(400);
    expect(badNotif.body).toContain('unknown event type');
    const badComputed = await api(t.app, t.admin, 'POST', '/api/attributes/computed', {
      attribute: 'a',
      expression: '1',
      type: 'Number',
    });
    expect(badComputed.statusCode).toBe(400);
    const badRef = await api(t.app, t.admin, 'POST', '/api/devices', {
      name: 'R',
      uniqueId: 'ref-1',
      groupId: 99999,
    });
    expect(badRef.statusCode).toBe(400);
    expect(badRef.body).toContain('Group 99999 not found');
  });

  it('geofence areas: CIRCLE, POLYGON, LINESTRING accepted (latitude first); malformed refused', async () => {
    for (const area of [
      'CIRCLE (48.8566 2.3522, 500)',
      'POLYGON ((48.85 2.35, 48.86 2.35, 48.86 2.36, 48.85 2.35))',
      'LINESTRING (-23.55 -46.63, -23.56 -46.64)',
    ]) {
      expect((await createObject(t, 'geofences', { name: 'g', area })).area).toBe(area);
    }
    for (const area of [
      'CIRCLE (48.8566, 500)',
      'CIRCLE (95 2, 500)',
      'CIRCLE (48 2, -5)',
      'POLYGON ((48 2, 49 2))',
      'LINESTRING (48 2)',
      'SQUARE (1 2, 3)',
      '',
    ]) {
      const res = await api(t.app, t.admin, 'POST', '/api/geofences', { name: 'g', area });
      expect(res.statusCode, area).toBe(400);
      expect(res.body).toMatch(/^IllegalArgumentException: area: /);
    }
  });

  it('calendars: base64 iCalendar validated', async () => {
    const bad = [
      'not base64 !!',
      Buffer.from('hello').toString('base64'),
      Buffer.from('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nEND:VEVENT\r\nEND:VCALENDAR').toString('base64'),
      Buffer.from('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20240501T080000Z\r\nEND:VCALENDAR').toString(
        'base64',
      ),
    ];
    for (const data of bad) {
      const res = await api(t.app, t.admin, 'POST', '/api/calendars', { name: 'c', data });
      expect(res.statusCode).toBe(400);
      expect(res.body).toMatch(/^IllegalArgumentException: data: /);
    }
    expect((await createObject(t, 'calendars', { name: 'ok', data: ICS })).data).toBe(ICS);
  });

  it('groups: cycles are refused with "Cycle in group hierarchy"', async () => {
    const a = await createObject(t, 'groups', { name: 'A' });
    const b = await createObject(t, 'groups', { name: 'B', groupId: a.id });
    const c = await createObject(t, 'groups', { name: 'C', groupId: b.id });
    const res = await api(t.app, t.admin, 'PUT', `/api/groups/${a.id}`, {
      id: a.id,
      name: 'A',
      groupId: c.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('IllegalArgumentException: Cycle in group hierarchy');
    const self = await api(t.app, t.admin, 'PUT', `/api/groups/${a.id}`, {
      id: a.id,
      name: 'A',
      groupId: a.id,
    });
    expect(self.body).toContain('Cycle in group hierarchy');
  });

  it('saved commands carry deviceId 0; computed attributes have no attributes map', async () => {
    const cmd = await createObject(t, 'commands', {
      type: 'custom',
      description: 'Ping',
      attributes: { data: 'PING' },
    });
    expect(cmd).toEqual({
      id: cmd.id,
      attributes: { data: 'PING' },
      description: 'Ping',
      type: 'custom',
      textChannel: false,
      deviceId: 0,
    });
    const attr = await createObject(t, 'attributes/computed', SAMPLES['attributes/computed']());
    expect(attr).toEqual({
      id: attr.id,
      description: 'Speed km/h',
      attribute: 'speedKmh',
      expression: 'speed * 1.852',
      type: 'number',
      priority: 0,
    });
  });

  it('deleting a group ungroups its devices and sub-groups', async () => {
    const g = await createObject(t, 'groups', { name: 'Parent' });
    const sub = await createObject(t, 'groups', { name: 'Child', groupId: g.id });
    const d = await createDevice(t, { groupId: g.id });
    expect((await api(t.app, t.admin, 'DELETE', `/api/groups/${g.id}`)).statusCode).toBe(204);
    expect(expectStatus<Obj>(await api(t.app, t.admin, 'GET', `/api/devices/${d.id}`), 200).groupId).toBe(0);
    expect(expectStatus<Obj>(await api(t.app, t.admin, 'GET', `/api/groups/${sub.id}`), 200).groupId).toBe(0);
  });
});

describe('list filters (CONTRACT §4)', () => {
  let t: TestApp;
  let user: Awaited<ReturnType<typeof createUser>>;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    t = await makeTestApp();
    user = await createUser(t, { name: 'Filter user' });
    const parent = await createObject(t, 'groups', { name: 'North' });
    const child = await createObject(t, 'groups', { name: 'North-East', groupId: parent.id });
    ids.parent = parent.id;
    ids.child = child.id;
    // Names chosen so that sorting by name differs from creation order.
    ids.charlie = (await createDevice(t, { name: 'Charlie', uniqueId: 'C-3', phone: '+55 11 9999' })).id;
    ids.alpha = (
      await createDevice(t, {
        name: 'alpha',
        uniqueId: 'A-1',
        groupId: child.id,
        attributes: { color: 'red' },
      })
    ).id;
    ids.bravo = (await createDevice(t, { name: 'Bravo', uniqueId: 'B-2', model: 'TK103' })).id;
    ids.delta = (await createDevice(t, { name: 'Delta', uniqueId: 'D-4' })).id;
    await link(t, { userId: user.id, deviceId: ids.charlie });
    await link(t, { userId: user.id, groupId: parent.id });
    await link(t, { deviceId: ids.alpha, linkedDeviceId: ids.bravo });
    ids.geoUser = (await createObject(t, 'geofences', { name: 'Mine', area: 'CIRCLE (1 1, 10)' })).id;
    ids.geoGroup = (await createObject(t, 'geofences', { name: 'Via group', area: 'CIRCLE (1 1, 10)' })).id;
    ids.geoDevice = (
      await createObject(t, 'geofences', { name: 'Device only', area: 'CIRCLE (1 1, 10)' })
    ).id;
    await link(t, { userId: user.id, geofenceId: ids.geoUser });
    await link(t, { groupId: parent.id, geofenceId: ids.geoGroup });
    await link(t, { deviceId: ids.charlie, geofenceId: ids.geoDevice });
    // Unlink the admin from Delta so the admin's default list differs from all=true.
    expectStatus(
      await api(t.app, t.admin, 'DELETE', '/api/permissions', { userId: 1, deviceId: ids.delta }),
      204,
    );
  });
  afterAll(async () => t.close());

  const names = (list: Obj[]) => list.map((d) => d.name);
  const get = async (cookie: string, url: string) =>
    expectStatus<Obj[]>(await api(t.app, cookie, 'GET', url), 200);

  it('devices: default = linked directly or via groups (sorted by name); admins need all=true', async () => {
    expect(names(await get(user.cookie, '/api/devices'))).toEqual(['alpha', 'Charlie']);
    expect(names(await get(t.admin, '/api/devices'))).toEqual(['alpha', 'Bravo', 'Charlie']);
    expect(names(await get(t.admin, '/api/devices?all=true'))).toEqual([
      'alpha',
      'Bravo',
      'Charlie',
      'Delta',
    ]);
    expect(names(await get(user.cookie, '/api/devices?all=true'))).toEqual(['alpha', 'Charlie']);
  });

  it('devices: userId = directly linked only; id and uniqueId repeatable and limited to accessible devices', async () => {
    expect(names(await get(t.admin, `/api/devices?userId=${user.id}`))).toEqual(['Charlie']);
    expect(
      names(await get(user.cookie, `/api/devices?id=${ids.alpha}&id=${ids.bravo}&id=${ids.charlie}`)),
    ).toEqual(['alpha', 'Charlie']);
    expect(names(await get(user.cookie, '/api/devices?uniqueId=B-2&uniqueId=C-3'))).toEqual(['Charlie']);
    expect(names(await get(t.admin, '/api/devices?uniqueId=D-4'))).toEqual(['Delta']);
    expect(names(await get(user.cookie, `/api/devices?deviceId=${ids.alpha}`))).toEqual(['Bravo']);
  });

  it('devices: keyword (name, uniqueId, phone, model, contact), limit, offset, excludeAttributes', async () => {
    expect(names(await get(t.admin, '/api/devices?all=true&keyword=tk1'))).toEqual(['Bravo']);
    expect(names(await get(t.admin, '/api/devices?all=true&keyword=9999'))).toEqual(['Charlie']);
    expect(names(await get(t.admin, '/api/devices?all=true&keyword=ALPHA'))).toEqual(['alpha']);
    expect(names(await get(t.admin, '/api/devices?all=true&keyword=%25'))).toEqual([]);
    expect(names(await get(t.admin, '/api/devices?all=true&limit=2&offset=1'))).toEqual(['Bravo', 'Charlie']);
    const ex = await get(t.admin, '/api/devices?all=true&excludeAttributes=true');
    expect(ex.every((d) => JSON.stringify(d.attributes) === '{}')).toBe(true);
    const withAttrs = await get(t.admin, '/api/devices?all=true');
    expect(withAttrs.find((d) => d.name === 'alpha')!.attributes).toEqual({ color: 'red' });
  });

  it('groups (simple): default and userId include sub-groups of linked groups', async () => {
    expect(names(await get(user.cookie, '/api/groups'))).toEqual(['North', 'North-East']);
    expect(names(await get(t.admin, `/api/groups?userId=${user.id}`))).toEqual(['North', 'North-East']);
  });

  it('geofences (extended): default = direct + via groups; userId/deviceId/groupId = directly linked', async () => {
    expect(names(await get(user.cookie, '/api/geofences'))).toEqual(['Mine', 'Via group']);
    expect(names(await get(user.cookie, `/api/geofences?userId=${user.id}`))).toEqual(['Mine']);
    expect(names(await get(user.cookie, `/api/geofences?deviceId=${ids.charlie}`))).toEqual(['Device only']);
    expect(names(await get(user.cookie, `/api/geofences?groupId=${ids.parent}`))).toEqual(['Via group']);
    expect(names(await get(t.admin, '/api/geofences?all=true'))).toEqual([
      'Device only',
      'Mine',
      'Via group',
    ]);
  });

  it('filters on objects the caller cannot see are refused', async () => {
    const res = await api(t.app, user.cookie, 'GET', `/api/geofences?deviceId=${ids.delta}`);
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('SecurityException: Device access denied');
    const u = await api(t.app, user.cookie, 'GET', '/api/devices?userId=1');
    expect(u.body).toBe('SecurityException: User access denied');
  });

  it('bad query values are 400 with a text', async () => {
    for (const q of ['limit=-1', 'limit=abc', 'id=x', 'all=maybe', 'userId=0']) {
      const res = await api(t.app, t.admin, 'GET', `/api/devices?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.body.length).toBeGreaterThan(0);
    }
  });
});
