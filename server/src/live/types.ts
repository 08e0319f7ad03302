// Shapes the live core's parts share (positions coming in). This file imports nothing of live/, so any part may
// use it without importing the core (ingest.ts) back: the live folder has no import circle (scripts/check-cycles.mjs).

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
