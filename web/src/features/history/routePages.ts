// A long route read in pages (issue #31): GET /{ns}/route?deviceId&from&to&limit[&after]&format=rows page after
// page (light rows: only what the history draws, plays, lists and exports, domain routePageRow), each
// handed to `onPage` with the whole route so far as soon as it is read, so the map draws the first part at once
// and the rest as it arrives. The first page is small (drawn in a blink), the next ones large (fewer requests);
// its answer also tells the whole route's extent (ROUTE_EXTENT_HEADER), for the view to be fitted once. Page n+1
// is asked for as soon as page n is read, before page n is drawn (one page ahead, never more), so the server reads
// it while the map draws; the pages are still handed over in order, and the page asked ahead is cancelled with the
// load (a newer query, leaving the page) or when the load ends early.
// A server without the paged route (gateway mode: the route is Traccar's) answers 404: the route is then read at
// once from /api/reports/route (loadRoute). Errors are the route load's (SPEC §8): a JSON parse problem
// 'route.badFormat', 404 or an empty period 'route.noData', not positions 'route.invalidData', no or another
// failed answer 'route.invalidResponse'.
import {
  appendRoutePage,
  parseRoute,
  parseRouteExtent,
  ROUTE_EXTENT_HEADER,
  ROUTE_ROWS_FORMAT,
  routeLoadErrorKey,
  routePointsFromRows,
  type RouteParse,
  type RoutePoint,
} from '@rastro/domain';
import { api, ext, HttpError, type HttpClient } from '../../api/http.ts';

/** Positions in the first page and in each of the next ones (the server allows up to 50,000). */
const ROUTE_PAGE_SIZES = { first: 2_000, next: 25_000 };

export type RouteExtent = [number, number, number, number];

export interface RoutePagesOptions {
  /**
   * Called with the route so far after each page, and whether it was the last one; with the first page, the whole
   * route's [west, south, east, north] when the server tells it (else null).
   */
  onPage(points: RoutePoint[], done: boolean, extent: RouteExtent | null): void;
  signal?: AbortSignal;
  client?: HttpClient;
  /** the Traccar client, for the fallback */
  traccar?: HttpClient;
  sizes?: { first: number; next: number };
}

type PageAnswer = { ok: true; text: string; extent: RouteExtent | null } | { ok: false; err: unknown };

export async function loadRoutePages(
  deviceId: number,
  from: string,
  to: string,
  options: RoutePagesOptions,
): Promise<RouteParse> {
  const { onPage, signal, client = ext, sizes = ROUTE_PAGE_SIZES } = options;
  // the page asked ahead is cancelled with the load, and when the load ends early (an error, onPage throwing)
  const ahead = new AbortController();
  const cancel = () => ahead.abort(signal?.reason);
  if (signal?.aborted) cancel();
  else signal?.addEventListener('abort', cancel, { once: true });
  // never rejects: a page asked ahead and not awaited (the load ended) leaves no unhandled rejection
  const ask = (after: number | undefined): Promise<PageAnswer> =>
    client
      .request<string>('GET', '/route', {
        query: {
          deviceId,
          from,
          to,
          limit: after === undefined ? sizes.first : sizes.next,
          after,
          format: ROUTE_ROWS_FORMAT,
        },
        responseType: 'text',
        signal: ahead.signal,
      })
      .then(
        (res) => ({
          ok: true as const,
          text: res.data,
          extent: after === undefined ? parseRouteExtent(res.headers.get(ROUTE_EXTENT_HEADER)) : null,
        }),
        (err: unknown) => ({ ok: false as const, err }),
      );
  try {
    let points: RoutePoint[] = [];
    let after: number | undefined;
    let next = ask(undefined);
    for (;;) {
      const limit = after === undefined ? sizes.first : sizes.next;
      const answer = await next;
      if (signal?.aborted) throw signal.reason;
      if (!answer.ok) {
        const err = answer.err;
        if (after === undefined && err instanceof HttpError && err.status === 404) {
          const whole = await loadRoute(deviceId, from, to, options.traccar, signal);
          if (whole.ok) onPage(whole.points, true, null);
          return whole;
        }
        return {
          ok: false,
          error: routeLoadErrorKey(err instanceof HttpError ? { status: err.status } : null),
        };
      }
      const page = readPage(answer.text, deviceId, after !== undefined);
      if (!page.ok) return page;
      const done = page.points.length < limit;
      // the next page is asked for now, so the server reads it while this one is drawn (one page ahead)
      if (!done) {
        after = page.points[page.points.length - 1].id;
        next = ask(after);
      }
      points = appendRoutePage(points, page.points);
      onPage(points, done, answer.extent);
      if (done) return { ok: true, points };
    }
  } finally {
    signal?.removeEventListener('abort', cancel);
    ahead.abort();
  }
}

/** A light page's text (domain routePageRow) as points; an empty page after the first ends a route of whole pages. */
function readPage(text: string, deviceId: number, later: boolean): RouteParse {
  return readRouteText(text, (json) =>
    later && Array.isArray(json) && json.length === 0
      ? { ok: true, points: [] }
      : routePointsFromRows(json, deviceId),
  );
}

/** GET /api/reports/route?deviceId&from&to, the whole route at once (read as text: see readRouteText). */
export async function loadRoute(
  deviceId: number,
  from: string,
  to: string,
  client: HttpClient = api,
  signal?: AbortSignal,
): Promise<RouteParse> {
  let text: string;
  try {
    const res = await client.request<string>('GET', '/reports/route', {
      query: { deviceId, from, to },
      responseType: 'text',
      signal,
    });
    text = res.data;
  } catch (err) {
    if (signal?.aborted) throw err;
    return { ok: false, error: routeLoadErrorKey(err instanceof HttpError ? { status: err.status } : null) };
  }
  return readRouteText(text, parseRoute);
}

/** A route answer's text read by `parse`; a JSON parse problem is told apart ('route.badFormat'). */
function readRouteText(text: string, parse: (json: unknown) => RouteParse): RouteParse {
  let json: unknown;
  try {
    json = text === '' ? null : JSON.parse(text);
  } catch (err) {
    return { ok: false, error: routeLoadErrorKey(err instanceof Error ? err : null) };
  }
  return parse(json);
}
