// The kysely repositories (db/repos, docs/decisions/41-kysely-repositories.md) on the store the tests run on:
// SQLite by default, PostgreSQL with RASTRO_TEST_DATABASE_URL. Their SQL is compiled for the store's dialect and
// must reach it untranslated ($n parameters on PostgreSQL, lists as one parameter).
import { describe, expect, it } from 'vitest';
import {
  addLink,
  distinctDevicesOfAsync,
  linkPairsAsync,
  usersOfDeviceAsync,
} from '../../src/db/repos/links.ts';
import {
  anyUserAsync,
  findUserByAccountAsync,
  findUsersByIdsAsync,
  insertUserRowAsync,
  userIdByEmailAsync,
} from '../../src/db/repos/users.ts';
import { pingStoreAsync, serverSettingsAsync, updateServerSettingsAsync } from '../../src/db/repos/server.ts';
import { storedDeviceCountAsync, deviceIdsByIdsOrUniqueIds } from '../../src/db/repos/devices.ts';
import { removeLinksNaming } from '../../src/db/repos/links.ts';
import {
  clearReference,
  findObjectAsync,
  insertObjectAsync,
  listObjects,
  objectsByIds,
  updateObjectAsync,
} from '../../src/db/repos/objects.ts';
import { purgeExpiredSessions } from '../../src/db/repos/sessions.ts';
import { eventCountsByDevice, firstEventTimesByCode, lastEventOfType } from '../../src/db/repos/events.ts';
import {
  deletePositionsBetween,
  firstPositionTimesByCode,
  positionHistory,
  positionValueAtEdge,
  positionsForActivity,
  topSpeedsOver,
} from '../../src/db/repos/positions.ts';
import { insertLiveEventAsync } from '../../src/db/repos/ingest.ts';
import { insertAsync, qb } from '../../src/db/repos/query.ts';
import {
  findUnknownDevice,
  recordUnknownDevice,
  pruneUnknownDevices,
} from '../../src/db/repos/unknownDevices.ts';
import { liveSnapshotAsync } from '../../src/db/repos/snapshot.ts';
import { jsonField } from '../../src/db/sql.ts';
import { TEST_DATABASE_URL } from '../helpers/store.ts';
import { repoStore } from '../helpers/repoStore.ts';
import { positionRow } from '../support/positionRow.ts';

const store = repoStore('repos');

const newUser = (email: string, login: string | null = null) =>
  insertUserRowAsync(store.sql, { name: email, email, login, attributes: '{}' });

describe('repositories', () => {
  it('inserts return the new id; lookups by id list, e-mail and login answer the stored rows', async () => {
    expect(store.kind).toBe(TEST_DATABASE_URL ? 'postgres' : 'sqlite');
    await pingStoreAsync(store.sql);
    expect(await anyUserAsync(store.sql)).toBe(false);
    const a = await newUser('Ana@Example.com', 'ana');
    const b = await newUser('bia@example.com');
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(a);
    expect(await anyUserAsync(store.sql)).toBe(true);
    expect((await findUserByAccountAsync(store.sql, 'ana@example.com'))?.id).toBe(a);
    expect((await findUserByAccountAsync(store.sql, 'ana'))?.id).toBe(a);
    expect(await userIdByEmailAsync(store.sql, 'ANA@example.COM')).toBe(a);
    expect(await userIdByEmailAsync(store.sql, 'ana@example.com', a)).toBeUndefined();
    // one statement whatever the list's length; an empty list answers nothing
    expect(
      (await findUsersByIdsAsync(store.sql, [b, a, 999_999])).map((u) => u.id).sort((x, y) => x - y),
    ).toEqual([a, b]);
    expect(await findUsersByIdsAsync(store.sql, [])).toEqual([]);
  });

  it('links: adding twice keeps one; unions and distinct counts over a list of owners', async () => {
    const link = { ownerType: 'user', ownerId: 7, propertyType: 'device', propertyId: 70 };
    await addLink(store.sql, link);
    await addLink(store.sql, link);
    await addLink(store.sql, { ownerType: 'user', ownerId: 8, propertyType: 'group', propertyId: 5 });
    await addLink(store.sql, { ownerType: 'user', ownerId: 8, propertyType: 'device', propertyId: 70 });
    await addLink(store.sql, { ownerType: 'user', ownerId: 8, propertyType: 'device', propertyId: 71 });
    expect(await linkPairsAsync(store.sql, 'user', 'device', 0, 70)).toEqual([
      { ownerId: 7, propertyId: 70 },
      { ownerId: 8, propertyId: 70 },
    ]);
    expect((await usersOfDeviceAsync(store.sql, 70, [5])).sort()).toEqual([7, 8]);
    expect(await usersOfDeviceAsync(store.sql, 99, [5])).toEqual([8]);
    expect(await distinctDevicesOfAsync(store.sql, [7, 8])).toBe(2);
    expect(await distinctDevicesOfAsync(store.sql, [])).toBe(0);
  });

  it('server settings: written columns read back', async () => {
    await updateServerSettingsAsync(store.sql, { registration: 1, announcement: 'hello' });
    expect(await serverSettingsAsync(store.sql)).toMatchObject({
      id: 1,
      registration: 1,
      announcement: 'hello',
    });
  });

  it('objects: keyword search (its % and _ literal), case-insensitive sort, paging with an offset alone', async () => {
    const db = store.sql;
    const id = (name: string, uniqueId: string) =>
      insertObjectAsync(db, 'devices', {
        name,
        uniqueId,
        groupId: 0,
        calendarId: 0,
        disabled: 0,
        attributes: '{}',
      });
    const b = await id('beta', 'u-1');
    const a = await id('Alpha', 'u_2');
    const c = await id('gamma 50%', 'u-3');
    expect(await storedDeviceCountAsync(db)).toBe(3);
    const names = async (opts: Partial<Parameters<typeof listObjects>[3]>, ids: number[] | 'all' = 'all') =>
      (await listObjects(db, 'devices', ids, { search: ['name', 'uniqueId'], sort: 'name', ...opts })).map(
        (r) => r.name,
      );
    expect(await names({})).toEqual(['Alpha', 'beta', 'gamma 50%']);
    expect(await names({ keyword: ' ALPHA ' })).toEqual(['Alpha']);
    expect(await names({ keyword: 'u_' })).toEqual(['Alpha']);
    expect(await names({ keyword: '0%' })).toEqual(['gamma 50%']);
    expect(await names({ offset: 1 })).toEqual(['beta', 'gamma 50%']);
    expect(await names({ limit: 1, offset: 1 })).toEqual(['beta']);
    expect(await names({}, [c, b])).toEqual(['beta', 'gamma 50%']);
    expect(await names({}, [])).toEqual([]);
    expect(await listObjects(db, 'devices', [a], { search: ['name'], sort: 'name' }, 'id')).toEqual([
      { id: a },
    ]);
    expect((await deviceIdsByIdsOrUniqueIds(db, [b], ['u-3'])).sort((x, y) => x - y)).toEqual([b, c]);
    expect(await deviceIdsByIdsOrUniqueIds(db, [], [])).toEqual([]);
    await updateObjectAsync(db, 'devices', a, { calendarId: 9, name: 'Alef' });
    expect(await findObjectAsync(db, 'devices', a)).toMatchObject({ name: 'Alef', calendarId: 9 });
    await clearReference(db, { table: 'devices', column: 'calendarId' }, 9);
    expect(await objectsByIds(db, 'devices', [a, 999_999])).toMatchObject([{ id: a, calendarId: 0 }]);
  });

  it('links naming an object are removed on both sides; housekeeping removes only what expired', async () => {
    const db = store.sql;
    await addLink(db, { ownerType: 'user', ownerId: 1, propertyType: 'geofence', propertyId: 40 });
    await addLink(db, { ownerType: 'geofence', ownerId: 40, propertyType: 'notification', propertyId: 2 });
    await addLink(db, { ownerType: 'user', ownerId: 1, propertyType: 'geofence', propertyId: 41 });
    expect(await removeLinksNaming(db, ['geofence'], 40)).toBe(2);
    expect(await linkPairsAsync(db, 'user', 'geofence', 1, 0)).toEqual([{ ownerId: 1, propertyId: 41 }]);
    expect(await purgeExpiredSessions(db, '2000-01-01T00:00:00.000Z', '2000-01-01T00:00:00.000Z')).toBe(0);
  });

  it('positions and events: period edges, per-code first times, per-device counts and top values', async () => {
    const db = store.sql;
    const at = (m: number) => `2026-01-01T00:0${m}:00.000Z`;
    // written on the pool (PostgreSQL has no synchronous statement since session 38)
    const put = (m: number, speed: number, attributes: Record<string, unknown>) =>
      insertAsync(
        db,
        qb(db)
          .insertInto('positions')
          .values(
            positionRow(500, at(m), {
              latitude: 1,
              longitude: 2,
              speed,
              attributes: JSON.stringify(attributes),
            }),
          ),
      );
    await put(1, 10, { totalDistance: 100, driverUniqueId: 'd1' });
    await put(2, 40, { totalDistance: 250, driverUniqueId: 'd2' });
    await put(3, 20, { totalDistance: 400, driverUniqueId: 'd1' });
    const event = (m: number, type: string, attributes: Record<string, unknown>) =>
      insertLiveEventAsync(db, {
        type,
        eventTime: at(m),
        deviceId: 500,
        positionId: 0,
        geofenceId: 0,
        maintenanceId: 0,
        attributes: JSON.stringify(attributes),
      });
    await event(1, 'deviceOverspeed', { speed: 30 });
    await event(2, 'deviceOverspeed', { speed: 45 });
    await event(3, 'driverChanged', { driverUniqueId: 'd3' });
    const from = at(0);
    const to = at(9);
    const total = jsonField(db.dialect, 'attributes', 'totalDistance', true);
    expect(Number((await positionValueAtEdge(db, total, 500, from, to, 'asc'))?.t)).toBe(100);
    expect(Number((await positionValueAtEdge(db, total, 500, from, to, 'desc'))?.t)).toBe(400);
    const code = jsonField(db.dialect, 'attributes', 'driverUniqueId');
    const seen = (await firstPositionTimesByCode(db, code, 500, from, to)).map((r) => [r.code, String(r.at)]);
    expect(seen.sort()).toEqual([
      ['d1', at(1)],
      ['d2', at(2)],
    ]);
    expect(
      (await firstEventTimesByCode(db, code, 500, 'driverChanged', from, to)).map((r) => r.code),
    ).toEqual(['d3']);
    const speed = jsonField(db.dialect, 'attributes', 'speed', true);
    expect(
      (await eventCountsByDevice(db, 'deviceOverspeed', speed, from, to)).map((r) => [
        r.deviceId,
        Number(r.n),
        r.top,
      ]),
    ).toEqual([[500, 2, 45]]);
    expect((await topSpeedsOver(db, from, to, 15)).map((r) => [r.deviceId, r.top])).toEqual([[500, 40]]);
    expect((await lastEventOfType(db, 500, 'deviceOverspeed'))?.eventTime).toBe(at(2));
    expect((await positionHistory(db, 500, at(2), at(3), 10)).map((p) => p.speed)).toEqual([40, 20]);
    expect((await positionsForActivity(db, 500, null, 10)).map((p) => p.speed)).toEqual([10, 40, 20]);
    const [first] = await positionsForActivity(db, 500, null, 1); // a page, then the rest after it
    const after = { fixTime: first.fixTime, id: Number(first.id) };
    expect((await positionsForActivity(db, 500, after, 10)).map((p) => p.speed)).toEqual([40, 20]);
    await deletePositionsBetween(db, 500, at(1), at(2));
    expect((await positionHistory(db, 500, from, to, 10)).map((p) => p.speed)).toEqual([20]);
    expect((await liveSnapshotAsync(db)).devices.length).toBe(3);
  });

  it('unknown devices: a repeat counts and keeps its last place; pruning keeps the most recent', async () => {
    const db = store.sql;
    const seen = (uniqueId: string, now: string, latitude: number | null) =>
      recordUnknownDevice(db, {
        uniqueId,
        protocol: 'osmand',
        now,
        latitude,
        longitude: latitude,
        fixTime: latitude ? now : null,
      });
    await seen('u1', '2026-01-01T00:00:01.000Z', 5);
    await seen('u1', '2026-01-01T00:00:04.000Z', null);
    await seen('u2', '2026-01-01T00:00:02.000Z', null);
    await seen('u3', '2026-01-01T00:00:03.000Z', null);
    expect(await findUnknownDevice(db, 'u1')).toMatchObject({
      reports: 2,
      latitude: 5,
      lastSeen: '2026-01-01T00:00:04.000Z',
    });
    await pruneUnknownDevices(db, 2);
    const kept = await Promise.all(['u1', 'u2', 'u3'].map((u) => findUnknownDevice(db, u)));
    expect(kept.map((r) => !!r)).toEqual([true, false, true]);
  });
});
