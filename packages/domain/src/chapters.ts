// History in chapters (issue #14): a period of a device's history as its trips and stops in time order (the same
// motion rules as the reports: the server's /api/reports/trips and /stops), each with its start, end, duration,
// distance, top speed and addresses; the slice of the loaded route a chapter covers (to zoom to and play only it);
// and where events sit on the playback timeline.
import type { ReportStop, ReportTrip } from './types.ts';

export interface Chapter {
  kind: 'trip' | 'stop';
  /** Position in the list, 0-based, in time order. */
  index: number;
  /** ms since epoch */
  start: number;
  end: number;
  durationMs: number;
  /** metres (0 for a stop) */
  distance: number;
  /** knots (0 for a stop) */
  maxSpeed: number;
  startAddress: string | null;
  /** The trip's end address; a stop's only address is its start. */
  endAddress: string | null;
}

const ms = (s: string) => Date.parse(s);

/** Trips and stops merged in time order (ties: the earlier end first); rows with unreadable times are left out. */
export function historyChapters(trips: readonly ReportTrip[], stops: readonly ReportStop[]): Chapter[] {
  const out: Omit<Chapter, 'index'>[] = [];
  for (const t of trips) {
    const start = ms(t.startTime);
    const end = ms(t.endTime);
    if (!Number.isFinite(start) || !Number.isFinite(end)) continue;
    out.push({
      kind: 'trip',
      start,
      end,
      durationMs: Math.max(0, end - start),
      distance: t.distance ?? 0,
      maxSpeed: t.maxSpeed ?? 0,
      startAddress: t.startAddress ?? null,
      endAddress: t.endAddress ?? null,
    });
  }
  for (const s of stops) {
    const start = ms(s.startTime);
    const end = ms(s.endTime);
    if (!Number.isFinite(start) || !Number.isFinite(end)) continue;
    out.push({
      kind: 'stop',
      start,
      end,
      durationMs: Math.max(0, end - start),
      distance: 0,
      maxSpeed: 0,
      startAddress: s.address ?? null,
      endAddress: null,
    });
  }
  out.sort((a, b) => a.start - b.start || a.end - b.end);
  return out.map((c, index) => ({ ...c, index }));
}

/**
 * The indexes [first, last] of the route points inside a chapter's time span (both ends included), or null when
 * none is. `points` are in time order.
 */
export function chapterRange(
  points: ReadonlyArray<{ time: number }>,
  chapter: Pick<Chapter, 'start' | 'end'>,
): [number, number] | null {
  let first = -1;
  let last = -1;
  for (let i = 0; i < points.length; i++) {
    const t = points[i].time;
    if (t < chapter.start) continue;
    if (t > chapter.end) break;
    if (first < 0) first = i;
    last = i;
  }
  return first < 0 ? null : [first, last];
}

/** Index of the point nearest in time to `time` (points in time order), -1 when there are none. */
export function nearestPointIndex(points: ReadonlyArray<{ time: number }>, time: number): number {
  if (points.length === 0) return -1;
  let lo = 0;
  let hi = points.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (points[mid].time <= time) lo = mid;
    else hi = mid;
  }
  return Math.abs(points[hi].time - time) < Math.abs(points[lo].time - time) ? hi : lo;
}
