// Loading a device's route for /history: the first page drawn on the route overlay at once, the pages after it
// handed to the map as they arrive (tiled while the next ones come, see pieceDue) and shown together when the last
// one is in (routePages.ts, issue #31; on a slow link also on the way, see revealDue), on a colour scale fixed before the route arrives (`speedScale`,
// domain routeSpeedScale), the camera fitted once with the first page (to the whole route's extent when the server
// tells it, else to that page); the panel's state (summary, table, playback) waits for the first page's line to be
// drawn, at most FIRST_HOLD_MS (issue #31: its render held the map's messages back). The period's trips, stops and
// events are asked for once the first page is in, so that the marks they make are set with the last page, before
// the route's last pieces are shown (a marks change after would cost one more frame of the whole route); then the
// chapters. A newer load or leaving the page aborts the one in flight.
import type { Chapter, MessageKey, RoutePoint } from '@rastro/domain';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { resolvePeriod, type PeriodValue } from '../../components/PeriodPicker.tsx';
import type { RouteOverlay } from '../../components/routeOverlay.ts';
import { endMarks, historyExtras, requestHistoryReports, type HistoryReports } from './historyExtras.ts';
import { loadRoutePages, type RouteExtent } from './routePages.ts';

export type LoadState =
  | { status: 'idle' }
  | { status: 'loading' }
  | { status: 'error'; error: MessageKey }
  | { status: 'ok'; points: RoutePoint[]; deviceId: number; complete: boolean };

const NO_EXTRAS = { chapters: [], eventTimes: [] };

/** The longest the panel waits for the first page's line to be drawn. */
const FIRST_HOLD_MS = 300;

/** While a long route is still arriving, the pieces given to the map are shown at most this often. */
const REDRAW_MS = 1000;

/**
 * Whether the points waiting (read, not yet given to the map) become a new piece of the route now: with the last
 * page, or when they are at least half the points given after the first page so far, so that the map's worker
 * tiles each page as it arrives (25,000 points a page: a 100,000-point route in 1 + 4 pieces) while a very long
 * route still ends in few pieces (each about 1.5 times the one before).
 */
export function pieceDue(o: { done: boolean; waiting: number; drawn: number }) {
  return o.done || (o.waiting > 0 && o.waiting * 2 >= o.drawn);
}

/**
 * Whether the pieces given to the map are shown once tiled: with the last page; before it only when the last
 * showing is REDRAW_MS old, so that a slow link still shows the line growing while a fast one shows the rest once.
 */
export function revealDue(o: { done: boolean; now: number; shownAt: number }) {
  return o.done || o.now - o.shownAt >= REDRAW_MS;
}

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
  // the chapters and the events' times of the route loaded last
  const [extras, setExtras] = useState<{ chapters: Chapter[]; eventTimes: number[] }>(NO_EXTRAS);
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
      setExtras(NO_EXTRAS);
      setChapter(null);
      overlay.current?.clear();
      // points of the first page, points given to the map after it, and when the pieces were last shown
      let first = 0;
      let rest = 0;
      let shownAt = 0;
      const scale = speedScale(id);
      // until the first page's line is drawn (at most FIRST_HOLD_MS) the panel's state waits, the latest kept: its
      // render (summary, table, playback) would hold the map's messages back, so the line after it
      let drawn = false;
      let held: LoadState | null = null;
      let holdTimer: ReturnType<typeof setTimeout> | undefined;
      // the period's reports (asked with the first page), once answered, and the extras made with the last page
      let reports: Promise<HistoryReports> | null = null;
      let answered: HistoryReports | null = null;
      let extras: ReturnType<typeof historyExtras> | null = null;
      const release = () => {
        if (drawn) return;
        drawn = true;
        clearTimeout(holdTimer);
        if (held && seq === request.current) setState(held);
        held = null;
      };
      const onPage = (points: RoutePoint[], done: boolean, extent: RouteExtent | null) => {
        if (seq !== request.current) return;
        const now = performance.now();
        if (first === 0) {
          overlay.current?.setRoute(points, endMarks(points, done), !extent, scale);
          if (extent && points.length) overlay.current?.fitExtent(extent);
          first = points.length;
          shownAt = now;
          holdTimer = setTimeout(release, FIRST_HOLD_MS);
          if (overlay.current) overlay.current.whenFirstDrawn(release);
          else release();
          reports = requestHistoryReports(id, range.from, range.to, show);
          void reports.then((answer) => {
            answered = answer;
          });
        } else if (pieceDue({ done, waiting: points.length - first - rest, drawn: rest })) {
          const reveal = revealDue({ done, now, shownAt });
          overlay.current?.appendRoute(points, reveal);
          if (done) {
            if (answered) extras = historyExtras(answered, points, show);
            overlay.current?.setMarks(extras ? extras.marks : endMarks(points, true));
          }
          rest = points.length - first;
          if (reveal) shownAt = now;
        }
        const next: LoadState = { status: 'ok', points, deviceId: id, complete: done };
        if (drawn) setState(next);
        else held = next;
      };
      let r: Awaited<ReturnType<typeof loadRoutePages>>;
      try {
        r = await loadRoutePages(id, range.from, range.to, { onPage, signal: controller.signal });
      } catch {
        if (controller.signal.aborted) return; // a newer load (or leaving the page) aborted this one
        r = { ok: false, error: 'route.invalidResponse' };
      }
      if (seq !== request.current) return;
      release();
      if (!r.ok) {
        overlay.current?.clear();
        setState({ status: 'error', error: r.error });
        return;
      }
      const made =
        extras ??
        historyExtras(
          await (reports ?? requestHistoryReports(id, range.from, range.to, show)),
          r.points,
          show,
        );
      if (seq !== request.current) return;
      if (made !== extras) overlay.current?.setMarks(made.marks);
      setExtras(made);
    },
    [tz, overlay, show, speedScale],
  );

  return { state, chapters: extras.chapters, eventTimes: extras.eventTimes, chapter, setChapter, load };
}
