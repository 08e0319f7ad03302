// The catalogue's and the reports' reads on the store's read pool (issue #30, session 35, H30z), on both stores: a
// read never answers what another caller's open transaction wrote and has not committed (SQLite: it waits for the
// transaction, which holds the one connection, then reads what was committed; PostgreSQL: another connection, which
// reads what is committed at once), and each reads what was written straight in the store, behind the live cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLink } from '../../src/db/repos/links.ts';
import { insertObjectAsync, updateObjectAsync } from '../../src/db/repos/objects.ts';
import { inTransaction } from '../../src/db/repos/query.ts';
import { ReportData } from '../../src/live/reports/data.ts';
import { getRowAsync } from '../../src/traccar/crud.ts';
import {
  api,
  createDevice,
  createObject,
  expectStatus,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('catalogue and report reads on the pool', () => {
  it("a single object's read answers the committed row, never another caller's open transaction", async () => {
    const db = t.ctx.store.sql;
    const fence = await createObject(t, 'geofences', { name: 'Before', area: 'CIRCLE (1 1, 100)' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let written!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const tx = inTransaction(db, async (handle) => {
      await updateObjectAsync(handle, 'geofences', fence.id, { name: 'Uncommitted' });
      written();
      await held;
      throw new Error('rolled back');
    }).catch((err: unknown) => (err as Error).message);
    await wrote;
    let settled = false;
    const read = getRowAsync(t.ctx, 'geofences', fence.id).then((row) => {
      settled = true;
      return row;
    });
    if (db.dialect === 'sqlite') {
      // the read waits its turn behind the open transaction (the synchronous read answered 'Uncommitted')
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      expect(settled).toBe(false);
    } else {
      // answered on another connection while the transaction is still open
      expect((await read)?.name).toBe('Before');
      expect(settled).toBe(true);
    }
    release();
    expect(await tx).toBe('rolled back');
    expect((await read)?.name).toBe('Before');
    const answered = expectStatus<{ name: string }>(
      await api(t.app, t.admin, 'GET', `/api/geofences/${fence.id}`),
      200,
    );
    expect(answered.name).toBe('Before');
  });

  it('a driver and a report link written straight in the store are read by the next request', async () => {
    const db = t.ctx.store.sql;
    const device = await createDevice(t, { name: 'Linked' });
    const report = await createObject(t, 'reports', { type: 'trips', description: 'Links', calendarId: 0 });
    await insertObjectAsync(db, 'drivers', { name: 'Bia', uniqueId: 'H30Z-D', attributes: '{}' });
    await addLink(db, {
      ownerType: 'device',
      ownerId: device.id,
      propertyType: 'report',
      propertyId: report.id,
    });
    expect((await new ReportData(t.ctx).drivers()).get('H30Z-D')).toBe('Bia');
    const links = expectStatus<{ deviceIds: number[] }>(
      await api(t.app, t.admin, 'GET', `/${t.ctx.config.ns}/scheduled-reports/${report.id}/links`),
      200,
    );
    expect(links.deviceIds).toEqual([device.id]);
  });
});
