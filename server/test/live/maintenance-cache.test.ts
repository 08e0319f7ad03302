// The maintenances come with the live cache's reload (issue #30, session 36, H30p; live/events/maintenance.ts): on
// both stores a maintenance created, linked or changed through the API is honoured by the next position, and the
// position path never reloads the cache synchronously (LiveCache.load: SQLite's flushNow only, refused on
// PostgreSQL). Before, the maintenance watch read the table itself, synchronously, at every cache reload.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { LiveCache } from '../../src/live/cache.ts';
import { getLive } from '../../src/live/ingest.ts';
import {
  api,
  createDevice,
  createObject,
  expectStatus,
  ingestPosition,
  link,
  makeTestApp,
  reportedEvents,
  type TestApp,
} from '../helpers/index.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t?.close();
});

const T0 = Date.parse('2026-11-30T06:00:00Z');
const at = (s: number) => new Date(T0 + s * 1000);

it('a maintenance linked, then changed through the API, is honoured by the next positions; no synchronous reload', async () => {
  const loads = vi.spyOn(LiveCache.prototype as unknown as { load(): void }, 'load');
  const d = await createDevice(t);
  const send = (s: number) => ingestPosition(t, { uniqueId: d.uniqueId, fixTime: at(s) });
  await send(0); // the cache loaded before the maintenance exists
  const m = await createObject(t, 'maintenance', {
    name: 'Every 10 minutes',
    type: 'fixTime',
    start: T0,
    period: 600_000,
  });
  await link(t, { deviceId: d.id, maintenanceId: m.id });
  const first = await send(600); // crosses 10 min
  await send(700);
  // every 5 minutes from here: 700 → 900 crosses 15 minutes (k = 3; with the old period nothing till 1200)
  expectStatus(await api(t.app, t.admin, 'PUT', `/api/maintenance/${m.id}`, { ...m, period: 300_000 }), 200);
  const second = await send(900);
  await getLive(t.ctx).settle();
  const events = await reportedEvents<{ positionId: number; maintenanceId: number }>(
    t,
    d.id,
    at(-60),
    at(3600),
    'maintenance',
  );
  expect(events.map((e) => [e.positionId, e.maintenanceId])).toEqual([
    [first.id, m.id],
    [second.id, m.id],
  ]);
  expect(loads).not.toHaveBeenCalled();
  loads.mockRestore();
});

it('flushNow, the synchronous batch, runs on SQLite only (PostgreSQL refuses it: settle() there)', async () => {
  const live = getLive(t.ctx);
  const d = await createDevice(t);
  const queued = live.ingest({
    uniqueId: d.uniqueId,
    protocol: 'osmand',
    fixTime: at(0),
    latitude: 1,
    longitude: 1,
  });
  await live.settle();
  expect((await queued).ok).toBe(true);
  if (t.ctx.store.sql.dialect === 'sqlite') expect(() => live.flushNow()).not.toThrow();
  else expect(() => live.flushNow()).toThrow(/SQLite's synchronous path/);
});
