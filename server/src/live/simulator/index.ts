// The demo fleet (docs/demo-fleet.md): seeds an empty store, backfills two days of history for the first devices,
// then moves SIM_DEVICES vehicles through the live ingestion pipeline. Each tick of SIM_INTERVAL_MS is cut into
// slices so reports of a large fleet are spread over the tick and ingested in batches.
import type { Command } from '@rastro/domain';
import type { AppContext } from '../../context.ts';
import { driverIdByCode, simulatedDevicesWithPlace } from '../../db/repos/simulator.ts';
import { getLive, type IncomingPosition } from '../ingest.ts';
import { TRACKER_COMMAND_TYPES } from '../commands.ts';
import { catalogEntry, indexOf } from './catalog.ts';
import { qrEnabledDevice, type Attributes } from '@rastro/domain';
import { DEMO_DRIVERS, seedDemo } from './seed.ts';
import { Vehicle } from './vehicle.ts';
import { DemoIncidents } from './incidents.ts';

export { DEMO_PASSWORD, DEMO_USERS } from './seed.ts';

/** Devices whose last two days are backfilled on the first start. */
export const BACKFILL_DEVICES = 5;
export const BACKFILL_HOURS = 48;
const BACKFILL_STEP_MS = 30_000;
const BACKFILL_PARKED_EVERY_MS = 300_000;
/** A parked tracker reports every two minutes (under the 600 s status timeout). */
const PARKED_EVERY_MS = 120_000;
/** "lost" devices report this many ticks after start, then fall silent (and turn unknown). */
const LOST_AFTER_TICKS = 3;
const CHUNK = 2000;
/** Vehicles reporting in one slice at most, so that no single ingestion holds the server's event loop for long. */
export const SLICE_VEHICLES = 100;
/** Slices never run closer together than this. */
export const MIN_SLICE_MS = 50;

/**
 * How many slices a tick is cut into: at least 10 (small fleets), enough that a slice holds at most
 * SLICE_VEHICLES vehicles, but never so many that slices would run closer than MIN_SLICE_MS. With 10,000 vehicles
 * and a 10 s tick: 100 slices of 100, one every 100 ms (as trackers report, spread out, not in a burst a second).
 */
export function sliceCount(vehicles: number, intervalMs: number): number {
  const wanted = Math.max(10, Math.ceil(vehicles / SLICE_VEHICLES));
  return Math.max(1, Math.min(vehicles, wanted, Math.floor(intervalMs / MIN_SLICE_MS)));
}

export interface Fleet {
  readonly vehicles: Map<string, Vehicle>;
  /** The monitoring center's demo SOS and towings (incidents.ts); `force` starts one now. */
  readonly incidents: DemoIncidents;
  /** Resolves once seeding and backfill are done and the ticks run. */
  readonly ready: Promise<void>;
  /** One full tick for every vehicle now (all slices); the timer calls slices of it. */
  tick(now?: number): Promise<void>;
  stop(): void;
}

function toIncoming(uniqueId: string, r: ReturnType<Vehicle['report']>): IncomingPosition {
  return {
    uniqueId,
    protocol: 'osmand',
    fixTime: r.fixTime,
    deviceTime: r.fixTime,
    latitude: r.latitude,
    longitude: r.longitude,
    altitude: r.altitude,
    speed: r.speed,
    course: r.course,
    accuracy: r.accuracy,
    attributes: r.attributes,
  };
}

const fleets = new WeakMap<AppContext, Promise<Fleet | null>>();

/**
 * Starts the demo fleet (nothing when SIM_DEVICES=0), after the core made the administrator. Idempotent per app:
 * a second call returns the same fleet.
 */
export function startFleet(ctx: AppContext): Promise<Fleet | null> {
  let f = fleets.get(ctx);
  if (!f) fleets.set(ctx, (f = createFleet(ctx)));
  return f;
}

async function createFleet(ctx: AppContext): Promise<Fleet | null> {
  const count = ctx.config.simDevices;
  // Several processes on one PostgreSQL database: the demo fleet moves in the one that led at start (db/cluster.ts).
  if (count <= 0 || !ctx.cluster.isLeader()) return null;
  const live = getLive(ctx);
  // Registered before the first await: an app closed while seeding never starts the timers.
  let closed = false;
  let started: Fleet | null = null;
  ctx.onClose.push(() => {
    closed = true;
    started?.stop();
  });
  const seed = await seedDemo(ctx);
  if (closed) return null;
  live.invalidate();

  const sql = ctx.store.sql;
  const drivers: string[] = [];
  for (const [, uniqueId] of DEMO_DRIVERS)
    if ((await driverIdByCode(sql, uniqueId)) !== undefined) drivers.push(uniqueId);
  const placed = await simulatedDevicesWithPlace(sql);
  if (closed) return null;
  const vehicles = new Map<string, Vehicle>();
  for (const r of placed) {
    const index = indexOf(r.uniqueId);
    if (index < 1 || index > count) continue;
    const v = new Vehicle(
      catalogEntry(index, ctx.config.simSeed, ctx.config.ns),
      ctx.config.simSeed,
      // A QR check-in vehicle has no driver reader: its driver is whoever scanned its code.
      qrEnabledDevice(parseJsonObject(r.attributes), ctx.config.ns) ? [] : drivers,
    );
    if (r.latitude !== null && r.longitude !== null)
      v.placeAt({ latitude: r.latitude, longitude: r.longitude });
    vehicles.set(r.uniqueId, v);
  }
  const ordered = [...vehicles.values()].sort((a, b) => a.entry.index - b.entry.index);

  let stopped = false;
  let ticks = 0;
  const dt = ctx.config.simIntervalMs / 1000;
  const slices = sliceCount(ordered.length, ctx.config.simIntervalMs);

  const reportable = (v: Vehicle) =>
    v.entry.behaviour === 'normal' || (v.entry.behaviour === 'lost' && ticks < LOST_AFTER_TICKS);

  async function send(batch: IncomingPosition[]): Promise<void> {
    for (let i = 0; i < batch.length && !stopped; i += CHUNK) {
      const results = await live.ingestMany(batch.slice(i, i + CHUNK));
      const failed = results.find((r) => !r.ok);
      if (failed && !failed.ok) ctx.log.debug({ error: failed.message }, 'simulated position refused');
    }
  }

  // Reports never go back in time, whatever the caller's clock says (commands answer between ticks).
  let lastNow = 0;
  const clock = (t: number) => (lastNow = Math.max(lastNow, t));

  const incidents = new DemoIncidents(ctx.config.simSeed, Date.now());
  async function runSlice(slice: number, at: number): Promise<void> {
    const now = clock(at);
    const batch: IncomingPosition[] = [];
    if (slice === 0)
      for (const i of incidents.tick(
        now,
        ordered.filter((v) => v.entry.behaviour === 'normal'),
      ))
        ctx.log.info(i, 'demo incident');
    for (let k = slice; k < ordered.length; k += slices) {
      const v = ordered[k];
      if (!reportable(v)) continue;
      v.step(now, dt);
      if (v.due(now, PARKED_EVERY_MS)) batch.push(toIncoming(v.entry.uniqueId, v.report(now)));
    }
    if (batch.length) await send(batch);
  }

  async function tick(now = Date.now()): Promise<void> {
    for (let s = 0; s < slices; s++) await runSlice(s, now);
    ticks++;
  }

  async function backfill(): Promise<void> {
    const end = Date.now();
    const start = end - BACKFILL_HOURS * 3600_000;
    for (const v of ordered.slice(0, BACKFILL_DEVICES)) {
      if (v.entry.behaviour !== 'normal' || stopped) continue;
      const batch: IncomingPosition[] = [];
      for (let t = start; t < end; t += BACKFILL_STEP_MS) {
        v.step(t, BACKFILL_STEP_MS / 1000);
        if (v.due(t, BACKFILL_PARKED_EVERY_MS)) batch.push(toIncoming(v.entry.uniqueId, v.report(t)));
      }
      await send(batch);
    }
  }

  const unsubscribe = live.addCommandSink({
    typesFor: (uniqueId) => (vehicles.has(uniqueId) ? TRACKER_COMMAND_TYPES : null),
    accepts: (uniqueId) => {
      const v = vehicles.get(uniqueId);
      return !!v && reportable(v);
    },
    send: async (uniqueId, command: Command) => {
      const v = vehicles.get(uniqueId)!;
      let answer: string | undefined;
      switch (command.type) {
        case 'engineStop':
          v.setBlocked(true);
          answer = 'Engine stopped';
          break;
        case 'engineResume':
          v.setBlocked(false);
          answer = 'Engine resumed';
          break;
        case 'positionSingle':
          answer = 'Position sent';
          break;
        default:
          answer = `${command.type} accepted`;
      }
      // the tracker confirms with a fresh report (blocked true/false), after its last one: a report at the same fix
      // time would be taken for a resend and not stored (one position per device and fix time, issue #30)
      if (!stopped) await send([toIncoming(uniqueId, v.report(clock(Math.max(Date.now(), lastNow + 1))))]);
      return answer;
    },
  });

  let timer: NodeJS.Timeout | null = null;
  const ready = (async () => {
    if (seed.seeded) await backfill();
    if (stopped || closed) return;
    let slice = 0;
    let busy = false;
    timer = setInterval(
      () => {
        if (busy) return; // never pile up: a slow slice delays the next one
        busy = true;
        const s = slice;
        slice = (slice + 1) % slices;
        runSlice(s, Date.now())
          .catch((err: unknown) => ctx.log.error({ err }, 'simulator slice failed'))
          .finally(() => {
            busy = false;
            if (s === slices - 1) ticks++;
          });
      },
      Math.max(MIN_SLICE_MS, Math.floor(ctx.config.simIntervalMs / slices)),
    );
    timer.unref();
  })().catch((err: unknown) => ctx.log.error({ err }, 'simulator start failed'));

  const fleet: Fleet = {
    vehicles,
    incidents,
    ready,
    tick,
    stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      unsubscribe();
    },
  };
  started = fleet;
  return fleet;
}

function parseJsonObject(text: string | null): Attributes {
  try {
    const v: unknown = JSON.parse(text ?? '{}');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Attributes) : {};
  } catch {
    return {};
  }
}
