// Shapes the live core's parts share (positions coming in, results, listeners). This file imports nothing of live/,
// so any part may use it without importing the core (ingest.ts) back: the live folder has no import circle
// (scripts/check-cycles.mjs).
import type { Device, Event, Position, QueuedCommand } from '@rastro/domain';

export interface IncomingPosition {
  uniqueId?: string;
  deviceId?: number;
  protocol: string;
  fixTime: Date;
  deviceTime?: Date;
  valid?: boolean;
  latitude: number;
  longitude: number;
  altitude?: number;
  /** knots */
  speed?: number;
  course?: number;
  accuracy?: number;
  attributes?: Record<string, unknown>;
  network?: object | null;
  /** No fix in the message: the location is the last known one (Traccar's `outdated`, not stored). */
  outdated?: boolean;
}

/** `unavailable`: the store refused the batch (database unreachable, issue #30): nothing stored, OsmAnd answers 503. */
export type IngestError = 'unknownDevice' | 'disabledDevice' | 'invalid' | 'failed' | 'unavailable';

export type IngestResult =
  | { ok: true; deviceId: number; position: Position; commands: QueuedCommand[] }
  | { ok: false; error: IngestError; message: string };

/** Receives what the live core produces. Every callback gets a batch (one processing tick). */
export interface LiveListener {
  /** Also called with what other server processes produced (db/cluster.ts): the socket's clients. */
  remote?: boolean;
  /** Devices whose status/lastUpdate/positionId changed. */
  devices?(devices: Device[]): void;
  /** Positions that became their device's latest. */
  positions?(positions: Position[]): void;
  /** Stored events. */
  events?(events: Event[]): void;
}
