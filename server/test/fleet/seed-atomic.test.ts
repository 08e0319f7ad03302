// The demo seed is one asynchronous transaction (issue #30, session 34: live/simulator/seed.ts on db/repos/query.ts
// inTransaction; on PostgreSQL a pooled connection, off the synchronous worker): a seed refused half way stores
// nothing of the demo, so the next start seeds it whole. Runs on both stores.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../src/context.ts';
import { deleteObject, insertObjectAsync } from '../../src/db/repos/objects.ts';
import { DEMO_DRIVERS, DEMO_USERS, seedDemo } from '../../src/live/simulator/seed.ts';
import { makeTestApp, type TestApp } from '../helpers/app.ts';
import { count, one } from '../support/testSql.ts';

let t: TestApp;
// the app starts without a demo fleet; the seed is then asked for 4 simulated vehicles
let demo: AppContext;
beforeAll(async () => {
  t = await makeTestApp();
  demo = { ...t.ctx, config: { ...t.ctx.config, simDevices: 4 } };
});
afterAll(async () => {
  await t?.close();
});

const countLike = async (table: 'users' | 'devices', column: 'email' | 'uniqueId', pattern: string) =>
  Number(
    (
      await one(t.ctx.store.sql, (q) =>
        q
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where(column as 'id', 'like', pattern as never),
      )
    )?.n,
  );
const demoUsers = async () => await countLike('users', 'email', '%@rastro.demo');
const simulated = async () => await countLike('devices', 'uniqueId', 'rastro-%');

describe('the demo seed', () => {
  it('refused half way (a driver code taken) stores nothing; once free, seeds everything in one go', async () => {
    const db = t.ctx.store.sql;
    // the third demo driver's code is taken: its insert fails after users, links and two drivers were written
    const taken = await insertObjectAsync(db, 'drivers', {
      name: 'Someone else',
      uniqueId: DEMO_DRIVERS[2]![1],
      attributes: '{}',
    });
    await expect(seedDemo(demo)).rejects.toThrow();
    expect(await demoUsers()).toBe(0);
    expect(await simulated()).toBe(0);
    expect(await count(db, 'drivers', { uniqueId: DEMO_DRIVERS[0]![1] })).toBe(0);
    expect(await count(db, 'groups')).toBe(0);

    await deleteObject(db, 'drivers', taken);
    const seeded = await seedDemo(demo);
    expect(seeded.seeded).toBe(true);
    expect(seeded.deviceIds).toHaveLength(4);
    expect(await demoUsers()).toBe(Object.keys(DEMO_USERS).length);
    expect(await simulated()).toBe(4);
    expect(await count(db, 'drivers')).toBe(DEMO_DRIVERS.length);
    // device links: the administrator to all 4, sub1 to 3, the read-only user to 4, the QR driver to 2
    expect(await count(db, 'links', { ownerType: 'user', propertyType: 'device' })).toBe(4 + 3 + 4 + 2);
    // a second seed sees a fleet and leaves it alone
    expect(await seedDemo(demo)).toEqual({ seeded: false, deviceIds: [] });
  });
});
