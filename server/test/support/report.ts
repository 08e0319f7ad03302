// A device's OsmAnd report `s` seconds after `t0` (ms), at latitude 1 and longitude 1 unless `fix` says otherwise:
// the reports the ingestion tests send to the live core (live/ingest.ts ingest, ingestMany).
import type { IncomingPosition } from '../../src/live/ingest.ts';

export function reportAt(
  uniqueId: string,
  t0: number,
  s: number,
  fix: Partial<IncomingPosition> = {},
): IncomingPosition {
  return {
    uniqueId,
    protocol: 'osmand',
    fixTime: new Date(t0 + s * 1000),
    latitude: 1,
    longitude: 1,
    ...fix,
  };
}
