// The live cache's readers moved off the synchronous reload (issue #30, session 33, H30t): the QR driver's settings,
// a live command's receiver, the deviceInactive sweep. Each sees what was written behind the cache (straight in the
// store, then an invalidation, as another process's change arrives) and none reads it through the synchronous reload
// (LiveCache.load: the synchronous worker on PostgreSQL until session 38, the main thread waiting): on both stores
// freshAsync reads it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Command } from '@rastro/domain';
import { insertAsync, qb, writeAsync } from '../../src/db/repos/query.ts';
import { LiveCache } from '../../src/live/cache.ts';
import { getLive } from '../../src/live/ingest.ts';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { DEVICE_ROW_BASE } from '../support/deviceRow.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t.close();
});

const HOUR = 3_600_000;

/** Runs `fn` counting the cache's synchronous reloads (private: spied through the prototype). */
async function syncLoadsDuring(fn: () => Promise<void>): Promise<number> {
  const loads = vi.spyOn(LiveCache.prototype as unknown as { load(): void }, 'load');
  try {
    await fn();
    return loads.mock.calls.length;
  } finally {
    loads.mockRestore();
  }
}

/** The server's attributes written straight in the store, then the cache told (as another process's change). */
async function serverAttributesBehind(attributes: Record<string, unknown>): Promise<void> {
  const db = t.ctx.store.sql;
  await writeAsync(
    db,
    qb(db)
      .updateTable('server')
      .set({ attributes: JSON.stringify(attributes) })
      .where('id', '=', 1),
  );
  getLive(t.ctx).invalidate();
}

describe('live cache readers after a change behind the cache', () => {
  it("the QR driver's check-in setting: seen as stored, never reloaded synchronously", async () => {
    const ns = t.ctx.config.ns;
    const driver = expectStatus<{ id: number }>(
      await api(t.app, t.admin, 'POST', '/api/drivers', {
        name: 'QR behind',
        uniqueId: 'qr-behind',
        attributes: {},
      }),
      200,
    );
    const qr = await createUser(t, { attributes: { [`${ns}.isQrDriverId`]: driver.id } });
    const truck = await createDevice(t, { attributes: { [`${ns}.qrDriver`]: true } });
    await link(t, { userId: qr.id, deviceId: truck.id });
    const state = async () =>
      expectStatus<{ enabled: boolean; lockButtons: boolean }>(
        await t.app.inject({ method: 'GET', url: `/${ns}/qr-driver`, headers: { cookie: qr.cookie } }),
        200,
      );
    for (const on of [true, false]) {
      await serverAttributesBehind({ [`${ns}.qrDriverCheckin`]: on, [`${ns}.lockUnlockButtons`]: on });
      const loads = await syncLoadsDuring(async () => {
        expect(await state()).toMatchObject({ enabled: on, lockButtons: on });
      });
      expect(loads).toBe(0);
    }
  });

  it('a live command to a device stored behind the cache reaches its receiver', async () => {
    const db = t.ctx.store.sql;
    const live = getLive(t.ctx);
    const id = await insertAsync(
      db,
      qb(db)
        .insertInto('devices')
        .values({ ...DEVICE_ROW_BASE, name: 'Receiver behind', uniqueId: 'cmd-behind' }),
    );
    live.invalidate();
    const got: Command[] = [];
    const off = live.onCommand('cmd-behind', (c) => void got.push(c));
    try {
      const command: Command = {
        id: 0,
        deviceId: id,
        type: 'positionSingle',
        textChannel: false,
        description: null,
        attributes: {},
      };
      const loads = await syncLoadsDuring(() => live.sendLive(id, command));
      expect(got.map((c) => [c.deviceId, c.type])).toEqual([[id, 'positionSingle']]);
      expect(loads).toBe(0);
    } finally {
      off();
    }
  });

  it('the deviceInactive sweep sees a device stored behind the cache', async () => {
    const db = t.ctx.store.sql;
    const live = getLive(t.ctx);
    const now = Date.now();
    const id = await insertAsync(
      db,
      qb(db)
        .insertInto('devices')
        .values({
          ...DEVICE_ROW_BASE,
          name: 'Silent behind',
          uniqueId: 'silent-behind',
          lastUpdate: new Date(now - 2 * HOUR).toISOString(),
          attributes: JSON.stringify({ deviceInactivityStart: HOUR }),
        }),
    );
    live.invalidate();
    let raised: Array<{ deviceId: number; type: string }> = [];
    const loads = await syncLoadsDuring(async () => {
      raised = await live.liveEvents.inactivity.sweep(now);
    });
    expect(raised.filter((e) => e.deviceId === id).map((e) => e.type)).toEqual(['deviceInactive']);
    expect(loads).toBe(0);
    // the same silence does not fire again (the stored event counts, read on the pool)
    expect((await live.liveEvents.inactivity.sweep(now + 1)).filter((e) => e.deviceId === id)).toEqual([]);
  });
});
