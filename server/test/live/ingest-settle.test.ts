// The ingestion's batches all or nothing, in order, and the routes' wait for them (issue #30, session 33, H30s), on
// SQLite and on PostgreSQL: a batch refused half way — its device-state write, after its positions and events, is
// refused by a trigger the test installs — stores nothing of it and answers every report "unavailable"; resent,
// the reports are stored once, in fix-time order, each event after its position, the device's latest position the
// newest. The position API waits for a report still queued (LiveCore.settle): on PostgreSQL by awaiting its pooled
// batch, never the synchronous store's transaction (flushNow); on SQLite by its fast path's transaction once the
// batch's reads are done asynchronously (flushQueued, session 35), never flushNow's synchronous reload either.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { IngestResult } from '../../src/live/types.ts';
import { getLive } from '../../src/live/ingest.ts';
import { api, createDevice, makeTestApp, type TestApp } from '../helpers/app.ts';
import { refuseStatements } from '../support/refuseTrigger.ts';
import { reportAt } from '../support/report.ts';
import { count, first, select } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Makes every `op` on `table` fail until the returned function is called (test-support's trigger). */
const refuseAll = (table: string, op: 'INSERT' | 'UPDATE') => refuseStatements(t, table, op);

const db = () => t.ctx.store.sql;
const T0 = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;

/** Reports queued in one go (one batch): each device's `seconds` after T0. */
function sendAll(reports: Array<[uniqueId: string, s: number]>): Promise<IngestResult[]> {
  const live = getLive(t.ctx);
  return Promise.all(
    reports.map(([uniqueId, s]) =>
      live.ingest(
        reportAt(uniqueId, T0, s, {
          latitude: 1 + s / 1000,
          longitude: 2,
          attributes: { ignition: s % 20 === 0 },
        }),
      ),
    ),
  );
}

describe("an ingestion batch's write", () => {
  it('refused half way stores nothing of it; resent, it is stored in order', async () => {
    const a = await createDevice(t, { name: 'Atomic A' });
    const b = await createDevice(t, { name: 'Atomic B' });
    const reports: Array<[string, number]> = [
      [a.uniqueId, 10],
      [b.uniqueId, 15],
      [a.uniqueId, 20],
      [a.uniqueId, 30],
    ];
    const undo = await refuseAll('devices', 'UPDATE');
    let refused: IngestResult[];
    try {
      refused = await sendAll(reports);
    } finally {
      await undo();
    }
    expect(refused.map((r) => (r.ok ? 'stored' : r.error))).toEqual(Array(4).fill('unavailable'));
    for (const d of [a, b]) {
      expect(await count(db(), 'positions', { deviceId: d.id })).toBe(0);
      expect(await count(db(), 'events', { deviceId: d.id })).toBe(0);
      expect(
        (await first<{ positionId: number | null }>(db(), 'devices', { id: d.id }))?.positionId ?? 0,
      ).toBe(0);
    }

    const stored = await sendAll(reports);
    expect(stored.every((r) => r.ok)).toBe(true);
    const positions = await select<{ id: number; fixTime: string }>(
      db(),
      'positions',
      { deviceId: a.id },
      { orderBy: ['id'] },
    );
    expect(positions.map((p) => Date.parse(p.fixTime))).toEqual([10, 20, 30].map((s) => T0 + s * 1000));
    expect(await count(db(), 'positions', { deviceId: b.id })).toBe(1);
    const device = (await first<{ positionId: number }>(db(), 'devices', { id: a.id }))!;
    expect(Number(device.positionId)).toBe(Number(positions[2].id));
    const events = await select<{ id: number; positionId: number; type: string }>(
      db(),
      'events',
      { deviceId: a.id },
      { orderBy: ['id'] },
    );
    // each event names a position of this batch (stored with it), none a refused one
    const ids = positions.map((p) => Number(p.id));
    const named = events.map((e) => Number(e.positionId)).filter((id) => id > 0);
    expect(named.length).toBeGreaterThan(0);
    for (const id of named) expect(ids).toContain(id);
    // resent once more: acknowledged, nothing stored twice
    expect((await sendAll(reports)).every((r) => r.ok)).toBe(true);
    expect(await count(db(), 'positions', { deviceId: a.id })).toBe(3);
  });

  it('is awaited by the position API: a queued report is answered, never through flushNow', async () => {
    const d = await createDevice(t, { name: 'Settled' });
    const live = getLive(t.ctx);
    const flushNow = vi.spyOn(live, 'flushNow');
    try {
      const sent = sendAll([[d.uniqueId, 40]]); // queued, not stored yet
      const from = new Date(T0).toISOString();
      const to = new Date(T0 + 60_000).toISOString();
      const res = await api(t.app, t.admin, 'GET', `/api/positions?deviceId=${d.id}&from=${from}&to=${to}`);
      expect(res.statusCode).toBe(200);
      expect((res.json() as Array<{ fixTime: string }>).map((p) => Date.parse(p.fixTime))).toEqual([
        T0 + 40_000,
      ]);
      expect((await sent)[0].ok).toBe(true);
      expect(flushNow).not.toHaveBeenCalled();
    } finally {
      flushNow.mockRestore();
    }
  });
});
