// Loading a device's route for /history: the pages drawn on the route overlay as they arrive (routePages.ts), each
// once, on a colour scale fixed before the route arrives (`speedScale`, domain routeSpeedScale), the camera fitted
// once with the first page (to the whole route's extent when the server tells it, else to that page); then the chapters, stops and events; a newer load or leaving the page aborts the one in
// flight.
import type { Chapter, MessageKey, RoutePoint } from '@rastro/domain';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { resolvePeriod, type PeriodValue } from '../../components/PeriodPicker.tsx';
import type { RouteOverlay } from '../../components/routeOverlay.ts';
import { loadHistoryExtras } from './historyExtras.ts';
import { loadRoutePages, type RouteExtent } from './routePages.ts';

export type LoadState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; error: MessageKey }
  | { status: 'ok'; points: RoutePoint[]; deviceId: number; complete: boolean };

const endMarks = (points: readonly RoutePoint[], complete: boolean) => {
  const first = points[0];
  const last = points[points.length - 1];
  const start = { kind: 'start' as const, latitude: first.latitude, longitude: first.longitude };
  return complete
    ? [start, { kind: 'end' as const, latitude: last.latitude, longitude: last.longitude }]
    : [start];
};

export function useRouteLoad(
  tz: string,
  overlay: RefObject<RouteOverlay | null>,
  show: { stops: boolean; events: boolean },
  /** Top of the speed colour scale (knots) for a device's route. */
  speedScale: (deviceId: number) => number,
) {
  const [state, setState] = useState<LoadState>({ status: 'idle' });
  const request = useRef(0);
  const inFlight = useRef<AbortController | null>(null);
  useEffect(() => () => inFlight.current?.abort(), []);
  const [chapters, setChapters] = useState<Chapter[]>([]);
  const [eventTimes, setEventTimes] = useState<number[]>([]);
  const [chapter, setChapter] = useState<number | null>(null);

  const load = useCallback(
    async (id: number | null, p: PeriodValue) => {
      const range = resolvePeriod(p, tz);
      if (!id || !range) return;
      const seq = ++request.current;
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      setState({ status: 'loading' });
      setChapters([]);
      setEventTimes([]);
      setChapter(null);
      overlay.current?.clear();
      let drawn = 0;
      const scale = speedScale(id);
      const onPage = (points: RoutePoint[], done: boolean, extent: RouteExtent | null) => {
        if (seq !== request.current) return;
        if (drawn === 0) {
          overlay.current?.setRoute(points, endMarks(points, done), !extent, scale);
          if (extent && points.length) overlay.current?.fitExtent(extent);
        } else overlay.current?.appendRoute(points);
        if (done && drawn > 0) overlay.current?.setMarks(endMarks(points, true));
        drawn = points.length;
        setState({ status: 'ok', points, deviceId: id, complete: done });
      };
      let r: Awaited<ReturnType<typeof loadRoutePages>>;
      try {
        r = await loadRoutePages(id, range.from, range.to, { onPage, signal: controller.signal });
      } catch {
        if (controller.signal.aborted) return; // a newer load (or leaving the page) aborted this one
        r = { ok: false, error: 'route.invalidResponse' };
      }
      if (seq !== request.current) return;
      if (!r.ok) {
        overlay.current?.clear();
        setState({ status: 'error', error: r.error });
        return;
      }
      const extras = await loadHistoryExtras(id, range.from, range.to, r.points, show);
      if (seq !== request.current) return;
      overlay.current?.setMarks(extras.marks);
      setChapters(extras.chapters);
      setEventTimes(extras.eventTimes);
    },
    [tz, overlay, show, speedScale],
  );

  return { state, chapters, eventTimes, chapter, setChapter, load };
}
