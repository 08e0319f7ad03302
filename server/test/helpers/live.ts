// Live-core shortcuts for tests: ingest one position straight into the core, read stored events back.
import type { Position } from '@rastro/domain';
import { getLive, type IncomingPosition } from '../../src/live/ingest.ts';
import { api, expectStatus, type TestApp } from './app.ts';

let lastFixTime = 0;

/**
 * A fix time strictly later than every one this helper gave before, and never before now. Two reports of one device
 * in the same millisecond are one fix (decision 39: the second is a resend), so a test whose reports follow each
 * other takes its fix times here rather than from `new Date()` (an exit lost so once failed anchor.test.ts in CI).
 */
export function laterFixTime(): Date {
  lastFixTime = Math.max(Date.now(), lastFixTime + 1);
  return new Date(lastFixTime);
}

/** Ingests one position (OsmAnd protocol, at 1,1 unless given) and returns it as stored; throws on refusal. */
export async function ingestPosition(
  t: TestApp,
  p: Pick<IncomingPosition, 'uniqueId' | 'fixTime'> & Partial<IncomingPosition>,
): Promise<Position> {
  const r = await getLive(t.ctx).ingest({ protocol: 'osmand', latitude: 1, longitude: 1, ...p });
  if (!r.ok) throw new Error(r.message);
  return r.position;
}

/** GET /api/reports/events of one device and type between two instants, as the admin. */
export async function reportedEvents<T>(
  t: TestApp,
  deviceId: number,
  from: Date,
  to: Date,
  type: string,
): Promise<T[]> {
  const range = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
  const res = await api(
    t.app,
    t.admin,
    'GET',
    `/api/reports/events?deviceId=${deviceId}&${range}&type=${type}`,
  );
  return expectStatus<T[]>(res, 200);
}
