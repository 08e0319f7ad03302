// The live core's check of a decoded position before it is queued, and its position writes through the statements
// prepared once in db/repos/ingest.ts (ingest.ts).
import type { IngestStatements } from '../db/repos/ingest.ts';
import { positionsAtFixes, positionsAtFixesAsync } from '../db/repos/positions.ts';
import type { SqlDatabase } from '../db/sql.ts';
import type { IngestWrites, PositionRow } from '../db/repos/ingestBatch.ts';
import type { Position } from '@rastro/domain';
import type { IncomingPosition } from './types.ts';
import { positionFromRow, type PositionDbRow } from './json.ts';

export function splitList(s: string): string[] {
  return s
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
}

export function validate(p: IncomingPosition): string | null {
  if (!p || typeof p !== 'object') return 'Position expected';
  if (p.uniqueId === undefined && p.deviceId === undefined) return 'Device id missing';
  if (!(p.fixTime instanceof Date) || !Number.isFinite(p.fixTime.getTime())) return 'Invalid fix time';
  if (
    p.deviceTime !== undefined &&
    (!(p.deviceTime instanceof Date) || !Number.isFinite(p.deviceTime.getTime()))
  )
    return 'Invalid device time';
  if (!Number.isFinite(p.latitude) || Math.abs(p.latitude) > 90) return 'Latitude out of range';
  if (!Number.isFinite(p.longitude) || Math.abs(p.longitude) > 180) return 'Longitude out of range';
  for (const k of ['altitude', 'speed', 'course', 'accuracy'] as const) {
    if (p[k] !== undefined && !Number.isFinite(p[k])) return `Invalid ${k}`;
  }
  return null;
}

/**
 * What a batch knows of the positions stored at (device, fix time) pairs (issue #30): the pairs read before its loop
 * in one statement (readStored) and the positions the batch itself stored; a pair it never asked about is read.
 */
export class StoredFixes {
  private readonly asked = new Set<string>();
  private readonly found = new Map<string, Position>();

  /** Reads the pairs at once (the read sends nothing held: it comes before the batch's first write). */
  read(db: SqlDatabase, pairs: ReadonlyArray<readonly [number, number]>): void {
    if (pairs.length) this.found_(positionsAtFixes(db, this.ask(pairs)) as unknown as PositionDbRow[]);
  }

  /** read() on the read pool (a pooled batch's read-ahead, before it starts). */
  async readAsync(db: SqlDatabase, pairs: ReadonlyArray<readonly [number, number]>): Promise<void> {
    if (pairs.length)
      this.found_((await positionsAtFixesAsync(db, this.ask(pairs))) as unknown as PositionDbRow[]);
  }

  private ask(pairs: ReadonlyArray<readonly [number, number]>): Array<readonly [number, string]> {
    const asked = new Map<string, readonly [number, string]>();
    for (const [id, ms] of pairs) asked.set(key(id, ms), [id, new Date(ms).toISOString()]);
    for (const k of asked.keys()) this.asked.add(k);
    return [...asked.values()];
  }

  private found_(rows: PositionDbRow[]): void {
    for (const row of rows) {
      const p = positionFromRow(row);
      this.found.set(key(p.deviceId, Date.parse(p.fixTime)), p);
    }
  }

  /** undefined: not asked (read it); null: not stored. */
  get(deviceId: number, fixMs: number): Position | null | undefined {
    const k = key(deviceId, fixMs);
    return this.asked.has(k) ? (this.found.get(k) ?? null) : undefined;
  }

  /** A position the batch stored (a resend later in the same batch finds it). */
  add(p: Position): void {
    const k = key(p.deviceId, Date.parse(p.fixTime));
    this.asked.add(k);
    this.found.set(k, p);
  }
}

const key = (deviceId: number, fixMs: number) => `${deviceId}/${fixMs}`;

/**
 * Before a batch's loop: the stored positions its reports may repeat (a device without a latest position, or a fix
 * not after it), read in one statement; `latest` answers a device's latest position (its state, already loaded).
 */
export function readAhead(
  db: SqlDatabase,
  batch: ReadonlyArray<{ deviceId: number; p: { fixTime: Date } }>,
  latest: (deviceId: number) => Position | null | undefined,
): StoredFixes {
  const known = new StoredFixes();
  known.read(db, fixesToAsk(batch, latest));
  return known;
}

/** readAhead on the read pool (a pooled batch, before it starts: live/pooledBatches.ts). */
export async function readAheadAsync(
  db: SqlDatabase,
  batch: ReadonlyArray<{ deviceId: number; p: { fixTime: Date } }>,
  latest: (deviceId: number) => Position | null | undefined,
): Promise<StoredFixes> {
  const known = new StoredFixes();
  await known.readAsync(db, fixesToAsk(batch, latest));
  return known;
}

/**
 * The (device, fix) pairs a batch may find stored: a device without a latest position, or a fix not after it nor
 * after an earlier report of the batch (which becomes the latest as the batch goes).
 */
function fixesToAsk(
  batch: ReadonlyArray<{ deviceId: number; p: { fixTime: Date } }>,
  latest: (deviceId: number) => Position | null | undefined,
): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  const newest = new Map<number, number>();
  for (const { deviceId, p } of batch) {
    const prev = latest(deviceId);
    const fixMs = p.fixTime.getTime();
    const before = newest.get(deviceId) ?? (prev ? Date.parse(prev.fixTime) : undefined);
    if (before === undefined || fixMs <= before) pairs.push([deviceId, fixMs]);
    newest.set(deviceId, Math.max(fixMs, before ?? fixMs));
  }
  return pairs;
}

/**
 * The device's stored position at the fix time (issue #30: one per device and fix time), looked for only where one
 * may be: at or before the latest position's fix time (`prev` null: always); in what the batch read ahead
 * (`known`) when it asked about the pair, else with a read of its own.
 */
export function storedAt(
  sql: IngestStatements,
  deviceId: number,
  fixMs: number,
  prev: Position | null,
  known?: StoredFixes,
): Position | null {
  if (prev && fixMs > Date.parse(prev.fixTime)) return null;
  const ahead = known?.get(deviceId, fixMs);
  if (ahead !== undefined) return ahead;
  const row = sql.positionAt.get(deviceId, new Date(fixMs).toISOString()) as PositionDbRow | undefined;
  return row ? positionFromRow(row) : null;
}

/**
 * Stores a position: its new id, or the position already stored at its fix time when the unique index skipped it
 * (SQLite says so at once; on PostgreSQL a write sent without waiting inside the batch cannot, and only a second
 * process storing the same fix at the same moment gets there: storedAt found every other resend first).
 */
export function insertPosition(
  sql: IngestStatements,
  writes: IngestWrites,
  position: Position,
  known?: StoredFixes,
): number | Position {
  const id = writes.position(positionRow(position));
  if (id !== 0) known?.add({ ...position, id }); // a resend later in the batch finds it
  if (id === 0) {
    const stored = storedAt(sql, position.deviceId, Date.parse(position.fixTime), null);
    if (stored) return stored;
  }
  return id;
}

/** An API time (`…000+00:00`, json.ts `iso`) as the stored `…000Z`; a string op on the hot path, a parse otherwise. */
const plainIso = (s: string): string =>
  s.length === 29 && s.endsWith('+00:00') ? `${s.slice(0, 23)}Z` : new Date(s).toISOString();

/** The positions-table row of a position in its API form (times back to plain ISO, JSON columns as text). */
function positionRow(p: Position): PositionRow {
  return {
    deviceId: p.deviceId,
    protocol: p.protocol,
    serverTime: plainIso(p.serverTime),
    deviceTime: plainIso(p.deviceTime),
    fixTime: plainIso(p.fixTime),
    valid: p.valid ? 1 : 0,
    latitude: p.latitude,
    longitude: p.longitude,
    altitude: p.altitude,
    speed: p.speed,
    course: p.course,
    accuracy: p.accuracy,
    network: p.network ? JSON.stringify(p.network) : null,
    geofenceIds: p.geofenceIds ? JSON.stringify(p.geofenceIds) : null,
    attributes: JSON.stringify(p.attributes),
  };
}
