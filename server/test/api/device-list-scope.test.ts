// GET /api/devices of a user who is not an administrator: the devices linked to the user directly or through its
// groups and their subgroups (three levels of groups in all, as access.ts reads them) come from one statement, the
// links being a condition of the list's own read (issue #30, session 26: one read on the pool fewer per request).
// The same devices as the visibility rules give (accessReads.ts visibleDeviceIdsAsync), on both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type CreatedUser,
  type TestApp,
} from '../helpers/app.ts';
import { readerOf } from '../../src/db/pool.ts';
import { visibleDeviceIdsAsync } from '../../src/traccar/accessReads.ts';
import type { UserRow } from '../../src/traccar/auth.ts';
import { first } from '../support/testSql.ts';

let t: TestApp;
let user: CreatedUser;
const seen: string[] = [];

beforeAll(async () => {
  t = await makeTestApp();
  user = await createUser(t);
  // groups G ⊃ H ⊃ I ⊃ J; the user is linked to G (and sees G, H, I: three levels) and to one device directly
  const g = await createObject(t, 'groups', { name: 'Scope G' });
  const h = await createObject(t, 'groups', { name: 'Scope H', groupId: g.id });
  const i = await createObject(t, 'groups', { name: 'Scope I', groupId: h.id });
  const j = await createObject(t, 'groups', { name: 'Scope J', groupId: i.id });
  const other = await createObject(t, 'groups', { name: 'Scope other' });
  for (const [name, groupId] of [
    ['in G', g.id],
    ['in H', h.id],
    ['in I', i.id],
    ['in J', j.id],
    ['in other', other.id],
    ['no group', 0],
  ] as const)
    await createDevice(t, { name: `Scope ${name}`, groupId });
  const direct = await createDevice(t, { name: 'Scope direct', groupId: other.id });
  await createDevice(t, { name: 'Scope unlinked' });
  await link(t, { userId: user.id, groupId: g.id });
  await link(t, { userId: user.id, deviceId: direct.id });
});
afterAll(async () => {
  await t?.close();
});

describe('the device list of a user who is not an administrator', () => {
  it.each(['/api/devices', '/api/devices?all=true'])(
    'GET %s: linked directly and through three levels of groups, links read in the same statement',
    async (path) => {
      const reader = readerOf(t.ctx.store.sql);
      const all = reader.all.bind(reader);
      reader.all = (text, values) => {
        seen.push(text);
        return all(text, values);
      };
      seen.length = 0;
      let list: Array<{ id: number; name: string }>;
      try {
        list = expectStatus(await api(t.app, user.cookie, 'GET', path), 200);
      } finally {
        reader.all = all;
      }
      expect(list.map((d) => d.name)).toEqual(['Scope direct', 'Scope in G', 'Scope in H', 'Scope in I']);
      const row = (await first(t.ctx.store.sql, 'users', { id: user.id })) as UserRow;
      expect(list.map((d) => d.id).sort((a, b) => a - b)).toEqual(
        (await visibleDeviceIdsAsync(t.ctx, row)).sort((a, b) => a - b),
      );
      // before: the user's links to devices and to groups, then each level of groups, read one after another
      const linkReads = seen.filter((s) => /from "links"/i.test(s) && !/from "devices"/i.test(s));
      expect(linkReads).toEqual([]);
    },
  );

  it('keyword, limit and offset page the linked devices', async () => {
    const page = expectStatus<Array<{ name: string }>>(
      await api(t.app, user.cookie, 'GET', '/api/devices?keyword=scope%20in&limit=2&offset=1'),
      200,
    );
    expect(page.map((d) => d.name)).toEqual(['Scope in H', 'Scope in I']);
  });
});
