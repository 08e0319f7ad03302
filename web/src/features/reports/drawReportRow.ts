// What a report row draws on the map: a trip's (or a summary's) positions, a stop, an event's position, a
// route point.
import { parseRoute, type Position } from '@rastro/domain';
import { api } from '../../api/http.ts';
import type { RouteMark, RouteOverlay } from '../../components/routeOverlay.ts';
import type { ReportKind, ReportRow, RowByKind } from './columns.ts';

/** Draws a row on the map: a trip's (or a summary's) positions, a stop, an event's position, a route point. */
export async function drawReportRow(o: RouteOverlay, kind: ReportKind, row: ReportRow): Promise<void> {
  const mark = (m: RouteMark) => {
    o.setRoute([], [m], false);
    o.flyTo(m.latitude, m.longitude);
  };
  if (kind === 'travels' || kind === 'resume') {
    const r = row as RowByKind['travels'] | RowByKind['resume'];
    const answer = await api
      .get<unknown>('/reports/route', { deviceId: r.deviceId, from: r.startTime, to: r.endTime })
      .catch(() => null);
    const parsed = parseRoute(answer);
    if (!parsed.ok) {
      if (kind === 'travels') {
        const trip = row as RowByKind['travels'];
        mark({ kind: 'start', latitude: trip.startLat, longitude: trip.startLon });
      }
      return;
    }
    const pts = parsed.points;
    o.setRoute(pts, [
      { kind: 'start', latitude: pts[0].latitude, longitude: pts[0].longitude },
      { kind: 'end', latitude: pts[pts.length - 1].latitude, longitude: pts[pts.length - 1].longitude },
    ]);
  } else if (kind === 'stops') {
    const s = row as RowByKind['stops'];
    mark({ kind: 'stop', latitude: s.latitude, longitude: s.longitude });
  } else if (kind === 'events') {
    const e = row as RowByKind['events'];
    if (!e.positionId) return;
    const ps = await api.get<Position[]>('/positions', { id: [e.positionId] }).catch(() => []);
    const p = Array.isArray(ps) ? ps[0] : undefined;
    if (p) mark({ kind: 'event', latitude: p.latitude, longitude: p.longitude, label: e.type });
  } else {
    const p = row as RowByKind['history'];
    mark({ kind: 'event', latitude: p.latitude, longitude: p.longitude });
  }
}
