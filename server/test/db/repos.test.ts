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
});
