// The status sweep's writes are one transaction on the pool (issue #30, session 34: live/statusSweep.ts through
// ingest.ts emitEvents on db/repos/query.ts inTransaction, no longer the store's synchronous transaction). Both
// stores: a sweep whose deviceUnknown event is refused (a trigger) stores nothing — no status written, no event —
// and leaves the devices online in memory; once the trigger is gone the next sweep stores both devices' status and
// events. The store's synchronous transaction is never called on the way (the old sweep called it once).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDevice, makeTestApp, type TestApp } from '../helpers/index.ts';
import { ingestPosition, laterFixTime } from '../helpers/live.ts';
import { getLive } from '../../src/live/ingest.ts';
import { refuseStatements } from '../support/refuseTrigger.ts';
import { first, select } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

const statusOf = async (id: number) =>
  ((await first(t.ctx.store.sql, 'devices', { id }, { columns: ['status'] })) as { status: string | null })
    .status;
const unknownEvents = async (deviceId: number) =>
  (await select(t.ctx.store.sql, 'events', { deviceId, type: 'deviceUnknown' }, { columns: ['id'] })).length;

describe('the status sweep, all or nothing', () => {
  it('a refused event stores no status and no event; the next sweep stores both devices whole', async () => {
    const live = getLive(t.ctx);
    const a = await createDevice(t);
    const b = await createDevice(t);
    await ingestPosition(t, { uniqueId: a.uniqueId, fixTime: laterFixTime() });
    await ingestPosition(t, { uniqueId: b.uniqueId, fixTime: laterFixTime() });
    await live.settle();
    expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['online', 'online']);
    const later = Date.now() + (t.ctx.config.statusTimeoutSeconds + 1) * 1000;
    const syncTransaction = vi.spyOn(t.ctx.store.sql, 'transaction');
    try {
      const allow = await refuseStatements(t, 'events', 'INSERT');
      try {
        await expect(live.sweep(later)).rejects.toThrow(/refused by the test/);
      } finally {
        await allow();
      }
      // the first device's status UPDATE ran before its refused event: rolled back with it
      expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['online', 'online']);
      expect([await unknownEvents(a.id), await unknownEvents(b.id)]).toEqual([0, 0]);
      expect([live.deviceJson(a.id)?.status, live.deviceJson(b.id)?.status]).toEqual(['online', 'online']);

      await live.sweep(later);
      expect([await statusOf(a.id), await statusOf(b.id)]).toEqual(['unknown', 'unknown']);
      expect([await unknownEvents(a.id), await unknownEvents(b.id)]).toEqual([1, 1]);
      expect([live.deviceJson(a.id)?.status, live.deviceJson(b.id)?.status]).toEqual(['unknown', 'unknown']);
      expect(syncTransaction).not.toHaveBeenCalled();
    } finally {
      syncTransaction.mockRestore();
    }
  });

  it("a device's command result is stored in its own transaction, never the synchronous one", async () => {
    const live = getLive(t.ctx);
    const d = await createDevice(t);
    const p = await ingestPosition(t, { uniqueId: d.uniqueId, fixTime: laterFixTime() });
    await live.settle();
    const syncTransaction = vi.spyOn(t.ctx.store.sql, 'transaction');
    try {
      const event = await live.commandResult(d.id, 'done');
      expect(event).toMatchObject({ type: 'commandResult', deviceId: d.id, positionId: p.id });
      const stored = (await first(
        t.ctx.store.sql,
        'events',
        { id: event.id },
        { columns: ['attributes'] },
      )) as {
        attributes: string;
      };
      expect(JSON.parse(stored.attributes)).toEqual({ result: 'done' });
      expect(syncTransaction).not.toHaveBeenCalled();
    } finally {
      syncTransaction.mockRestore();
    }
  });
});
