// The kysely repositories (db/repos, docs/decisions/41-kysely-repositories.md) on the store the tests run on:
// SQLite by default, PostgreSQL with RASTRO_TEST_DATABASE_URL. Their SQL is compiled for the store's dialect and
// must reach it untranslated ($n parameters on PostgreSQL, lists as one parameter).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/db/open.ts';
import { addLink, distinctDevicesOf, linkPairs, usersOfDevice } from '../../src/db/repos/links.ts';
import {
  anyUser,
  findUserByAccount,
  findUsersByIds,
  insertUserRow,
  userIdByEmail,
} from '../../src/db/repos/users.ts';
import { pingStore, serverSettings, updateServerSettings } from '../../src/db/repos/server.ts';
import { countDevices, deviceIdsByIdsOrUniqueIds } from '../../src/db/repos/devices.ts';
import { removeLinksNaming } from '../../src/db/repos/links.ts';
import {
  clearReference,
  findObject,
  insertObject,
  listObjects,
  objectsByIds,
  updateObject,
} from '../../src/db/repos/objects.ts';
import { purgeExpiredSessions } from '../../src/db/repos/sessions.ts';
import { dropStore, storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';

const key = `repos-${randomUUID()}`;
let store: Store;
beforeAll(async () => {
  store = openStore({ sqliteFile: ':memory:', databaseUrl: (await storeEnv(key)).DATABASE_URL });
});
afterAll(async () => {
  await store?.close();
  await dropStore(key);
});

const newUser = (email: string, login: string | null = null) =>
  insertUserRow(store.sql, { name: email, email, login, attributes: '{}' });

describe('repositories', () => {
  it('inserts return the new id; lookups by id list, e-mail and login answer the stored rows', () => {
    expect(store.kind).toBe(TEST_DATABASE_URL ? 'postgres' : 'sqlite');
    pingStore(store.sql);
    expect(anyUser(store.sql)).toBe(false);
    const a = newUser('Ana@Example.com', 'ana');
    const b = newUser('bia@example.com');
    expect(a).toBeGreaterThan(0);
    expect(b).toBeGreaterThan(a);
    expect(anyUser(store.sql)).toBe(true);
    expect(findUserByAccount(store.sql, 'ana@example.com')?.id).toBe(a);
    expect(findUserByAccount(store.sql, 'ana')?.id).toBe(a);
    expect(userIdByEmail(store.sql, 'ANA@example.COM')).toBe(a);
    expect(userIdByEmail(store.sql, 'ana@example.com', a)).toBeUndefined();
    // one statement whatever the list's length; an empty list answers nothing
    expect(
      findUsersByIds(store.sql, [b, a, 999_999])
        .map((u) => u.id)
        .sort((x, y) => x - y),
    ).toEqual([a, b]);
    expect(findUsersByIds(store.sql, [])).toEqual([]);
  });

  it('links: adding twice keeps one; unions and distinct counts over a list of owners', () => {
    const link = { ownerType: 'user', ownerId: 7, propertyType: 'device', propertyId: 70 };
    addLink(store.sql, link);
    addLink(store.sql, link);
    addLink(store.sql, { ownerType: 'user', ownerId: 8, propertyType: 'group', propertyId: 5 });
    addLink(store.sql, { ownerType: 'user', ownerId: 8, propertyType: 'device', propertyId: 70 });
    addLink(store.sql, { ownerType: 'user', ownerId: 8, propertyType: 'device', propertyId: 71 });
    expect(linkPairs(store.sql, 'user', 'device', 0, 70)).toEqual([
      { ownerId: 7, propertyId: 70 },
      { ownerId: 8, propertyId: 70 },
    ]);
    expect(usersOfDevice(store.sql, 70, [5]).sort()).toEqual([7, 8]);
    expect(usersOfDevice(store.sql, 99, [5])).toEqual([8]);
    expect(distinctDevicesOf(store.sql, [7, 8])).toBe(2);
    expect(distinctDevicesOf(store.sql, [])).toBe(0);
  });

  it('server settings: written columns read back', () => {
    updateServerSettings(store.sql, { registration: 1, announcement: 'hello' });
    expect(serverSettings(store.sql)).toMatchObject({ id: 1, registration: 1, announcement: 'hello' });
  });

  it('objects: keyword search (its % and _ literal), case-insensitive sort, paging with an offset alone', () => {
    const db = store.sql;
    const id = (name: string, uniqueId: string) =>
      insertObject(db, 'devices', {
        name,
        uniqueId,
        groupId: 0,
        calendarId: 0,
        disabled: 0,
        attributes: '{}',
      });
    const b = id('beta', 'u-1');
    const a = id('Alpha', 'u_2');
    const c = id('gamma 50%', 'u-3');
    expect(countDevices(db)).toBe(3);
    const names = (opts: Partial<Parameters<typeof listObjects>[3]>, ids: number[] | 'all' = 'all') =>
      listObjects(db, 'devices', ids, { search: ['name', 'uniqueId'], sort: 'name', ...opts }).map(
        (r) => r.name,
      );
    expect(names({})).toEqual(['Alpha', 'beta', 'gamma 50%']);
    expect(names({ keyword: ' ALPHA ' })).toEqual(['Alpha']);
    expect(names({ keyword: 'u_' })).toEqual(['Alpha']);
    expect(names({ keyword: '0%' })).toEqual(['gamma 50%']);
    expect(names({ offset: 1 })).toEqual(['beta', 'gamma 50%']);
    expect(names({ limit: 1, offset: 1 })).toEqual(['beta']);
    expect(names({}, [c, b])).toEqual(['beta', 'gamma 50%']);
    expect(names({}, [])).toEqual([]);
    expect(listObjects(db, 'devices', [a], { search: ['name'], sort: 'name' }, 'id')).toEqual([{ id: a }]);
    expect(deviceIdsByIdsOrUniqueIds(db, [b], ['u-3']).sort((x, y) => x - y)).toEqual([b, c]);
    expect(deviceIdsByIdsOrUniqueIds(db, [], [])).toEqual([]);
    updateObject(db, 'devices', a, { calendarId: 9, name: 'Alef' });
    expect(findObject(db, 'devices', a)).toMatchObject({ name: 'Alef', calendarId: 9 });
    clearReference(db, { table: 'devices', column: 'calendarId' }, 9);
    expect(objectsByIds(db, 'devices', [a, 999_999])).toMatchObject([{ id: a, calendarId: 0 }]);
  });

  it('links naming an object are removed on both sides; housekeeping removes only what expired', () => {
    const db = store.sql;
    addLink(db, { ownerType: 'user', ownerId: 1, propertyType: 'geofence', propertyId: 40 });
    addLink(db, { ownerType: 'geofence', ownerId: 40, propertyType: 'notification', propertyId: 2 });
    addLink(db, { ownerType: 'user', ownerId: 1, propertyType: 'geofence', propertyId: 41 });
    expect(removeLinksNaming(db, ['geofence'], 40)).toBe(2);
    expect(linkPairs(db, 'user', 'geofence', 1, 0)).toEqual([{ ownerId: 1, propertyId: 41 }]);
    expect(purgeExpiredSessions(db, '2000-01-01T00:00:00.000Z', '2000-01-01T00:00:00.000Z')).toBe(0);
  });
});
