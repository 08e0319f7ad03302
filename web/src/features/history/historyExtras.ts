// What the history screen loads besides the route (issue #14, SPEC §2): the trips and stops that make its
// chapters (the server's reports, so the same motion rules), the events (map marks and timeline marks), and the
// start / end / stop / event marks of the map as the server settings "show stops" / "show events" ask.
import {
  historyChapters,
  type Chapter,
  type Event,
  type ReportStop,
  type ReportTrip,
  type RoutePoint,
} from '@rastro/domain';
import { api } from '../../api/http.ts';
import type { RouteMark } from '../../components/routeOverlay.ts';

const list = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);

/** The period's trips, stops and events as the server answered them (an answer that failed: none). */
export interface HistoryReports {
  trips: unknown;
  stops: unknown;
  events: unknown;
}

/**
 * Asks for the period's trips, stops and (when shown) events; the history asks while the route's pages still come
 * (issue #31), so that its marks are on the map before the route's last pieces are shown, in the same frames.
 */
export async function requestHistoryReports(
  deviceId: number,
  from: string,
  to: string,
  show: { stops: boolean; events: boolean },
): Promise<HistoryReports> {
  const [trips, stops, events] = await Promise.all([
    api.get<ReportTrip[]>('/reports/trips', { deviceId, from, to }).catch(() => []),
    api.get<ReportStop[]>('/reports/stops', { deviceId, from, to }).catch(() => []),
    show.events
      ? api.get<Event[]>('/reports/events', { deviceId, from, to, type: 'allEvents' }).catch(() => [])
      : [],
  ]);
  return { trips, stops, events };
}

/** A route's start mark, and its end mark once the whole route is there. */
export function endMarks(points: readonly RoutePoint[], complete = true): RouteMark[] {
  const [first, last] = [points[0], points[points.length - 1]];
  const start: RouteMark = { kind: 'start', latitude: first.latitude, longitude: first.longitude };
  return complete ? [start, { kind: 'end', latitude: last.latitude, longitude: last.longitude }] : [start];
}

/** The marks, chapters and event times of a route from its period's reports. */
export function historyExtras(
  { trips, stops, events }: HistoryReports,
  points: readonly RoutePoint[],
  show: { stops: boolean; events: boolean },
): { marks: RouteMark[]; chapters: Chapter[]; eventTimes: number[] } {
  const marks: RouteMark[] = [];
  if (show.stops)
    for (const s of list<ReportStop>(stops))
      if (Number.isFinite(s.latitude) && Number.isFinite(s.longitude))
        marks.push({ kind: 'stop', latitude: s.latitude, longitude: s.longitude });
  // the events' times (ms), for the timeline (empty when "show events" is off)
  const eventTimes: number[] = [];
  // the events' positions, found in one pass over the route (a map of all its points, 100,000 on a long route,
  // held the last page's frame back by a few hundred ms, issue #31); none asked when there are no events
  const eventList = list<Event>(events);
  const wanted = new Set(eventList.map((e) => e.positionId));
  const byId = new Map<number, RoutePoint>();
  if (wanted.size) for (const p of points) if (wanted.has(p.id)) byId.set(p.id, p);
  for (const e of eventList) {
    const p = byId.get(e.positionId);
    if (p) marks.push({ kind: 'event', latitude: p.latitude, longitude: p.longitude, label: e.type });
    const at = Date.parse(e.eventTime);
    if (Number.isFinite(at)) eventTimes.push(at);
  }
  marks.push(...endMarks(points));
  return { marks, chapters: historyChapters(list<ReportTrip>(trips), list<ReportStop>(stops)), eventTimes };
}
