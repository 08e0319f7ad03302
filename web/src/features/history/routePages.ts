// A long route read in pages (issue #31): GET /{ns}/route?deviceId&from&to&limit[&after] page after page, each
// handed to `onPage` with the whole route so far as soon as it is read, so the map draws the first part at once
// and the rest as it arrives. The first page is small (drawn in a blink), the next ones large (fewer requests);
// its answer also tells the whole route's extent (ROUTE_EXTENT_HEADER), for the view to be fitted once.
// A server without the paged route (gateway mode: the route is Traccar's) answers 404: the route is then read at
// once from /api/reports/route (loadRoute.ts). Errors are the route load's (SPEC §8).
import {
  appendRoutePage,
  parseRoute,
  parseRouteExtent,
  ROUTE_EXTENT_HEADER,
  routeLoadErrorKey,
  type RoutePoint,
} from '@rastro/domain';
import { ext, HttpError, type HttpClient } from '../../api/http.ts';
import { loadRoute, type RouteLoad } from './loadRoute.ts';

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

export async function loadRoutePages(
  deviceId: number,
  from: string,
  to: string,
  options: RoutePagesOptions,
): Promise<RouteLoad> {
  const { onPage, signal, client = ext, sizes = ROUTE_PAGE_SIZES } = options;
  let points: RoutePoint[] = [];
  let after: number | undefined;
  for (;;) {
    const limit = after === undefined ? sizes.first : sizes.next;
    let text: string;
    let extent: RouteExtent | null = null;
    try {
      const res = await client.request<string>('GET', '/route', {
        query: { deviceId, from, to, limit, after },
        responseType: 'text',
        signal,
      });
      text = res.data;
      if (after === undefined) extent = parseRouteExtent(res.headers.get(ROUTE_EXTENT_HEADER));
    } catch (err) {
      if (signal?.aborted) throw err;
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
    let json: unknown;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch (err) {
      return { ok: false, error: routeLoadErrorKey(err instanceof Error ? err : null) };
    }
    // an empty page after the first is the end of a route whose length is a multiple of the page size
    const empty = Array.isArray(json) && json.length === 0 && after !== undefined;
    const page = empty ? { ok: true as const, points: [] } : parseRoute(json);
    if (!page.ok) return page;
    points = appendRoutePage(points, page.points);
    const done = page.points.length < limit;
    if (signal?.aborted) throw signal.reason;
    onPage(points, done, extent);
    if (done) return { ok: true, points };
    after = page.points[page.points.length - 1].id;
  }
}
