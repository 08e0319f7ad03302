import { afterEach, describe, expect, it, vi } from 'vitest';
import ExcelJS from 'exceljs';
import {
  parseRoute,
  ROUTE_EXTENT_HEADER,
  ROUTE_HEADERS_EN,
  routePageRowOf,
  type RoutePoint,
} from '@rastro/domain';
import { createClient } from '../../api/http.ts';
import { createI18n } from '../../i18n/index.ts';
import { buildRouteExport } from './exports.ts';
import { loadRoute, loadRoutePages } from './routePages.ts';

const T0 = Date.parse('2026-03-01T12:00:00Z');
const raw = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: 100 + i,
    deviceId: 3,
    latitude: Number((-23.5 + i * 0.001).toFixed(3)),
    longitude: Number((-46.6 + i * 0.001).toFixed(3)),
    course: 45,
    speed: i * 10,
    altitude: 700,
    fixTime: new Date(T0 + i * 15_000).toISOString(),
    address: i === 1 ? 'Av. Paulista, 1000' : null,
    attributes: {},
  }));

function client(status: number, body: string, contentType = 'application/json') {
  const fetchImpl = vi.fn(
    async () => new Response(body, { status, headers: { 'content-type': contentType } }),
  );
  return {
    c: createClient({ base: '/api', timeoutMs: 1000, fetchImpl: () => fetchImpl as typeof fetch }),
    fetchImpl,
  };
}

describe('route load errors (SPEC §8)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('asks /api/reports/route with deviceId, from and to', async () => {
    const { c, fetchImpl } = client(200, JSON.stringify(raw(2)));
    const r = await loadRoute(3, '2026-03-01T00:00:00.000Z', '2026-03-01T23:59:59.999Z', c);
    expect(r.ok && r.points.map((p) => p.id)).toEqual([100, 101]);
    const url = String((fetchImpl.mock.calls[0] as unknown[])[0]);
    expect(url).toBe(
      '/api/reports/route?deviceId=3&from=2026-03-01T00%3A00%3A00.000Z&to=2026-03-01T23%3A59%3A59.999Z',
    );
  });

  it('maps 404, bad JSON, non-arrays, empty answers and other failures to the catalogue', async () => {
    const cases: Array<[number, string, string]> = [
      [404, 'Not found', 'route.noData'],
      [200, '[{"id":1,', 'route.badFormat'],
      [200, '{"id":1}', 'route.invalidData'],
      [200, '[{"id":1,"latitude":"north"}]', 'route.invalidData'],
      [200, '', 'route.invalidResponse'],
      [200, '[]', 'route.noData'],
      [500, 'boom', 'route.invalidResponse'],
    ];
    for (const [status, body, key] of cases) {
      const { c } = client(status, body);
      expect(await loadRoute(1, 'a', 'b', c), `${status} ${body}`).toEqual({ ok: false, error: key });
    }
  });

  it('the messages read as SPEC §8 says, in Spanish', () => {
    const i18n = createI18n('es');
    expect(i18n.t('common:route.noData')).toBe('No se encontraron datos para el período seleccionado');
    expect(i18n.t('common:route.badFormat')).toBe('Error en el formato de respuesta del servidor');
    expect(i18n.t('common:route.invalidResponse')).toBe('Respuesta inválida del servidor');
    expect(i18n.t('common:route.invalidData')).toBe('Formato de datos inválido');
  });
});

describe('route export builders', () => {
  const parsed = parseRoute(raw(3));
  const points: RoutePoint[] = parsed.ok ? parsed.points : [];

  it('xlsx: one sheet whose rows read back with exceljs', async () => {
    const f = await buildRouteExport('xlsx', 'Car 1', points, 'kmh', ROUTE_HEADERS_EN);
    expect(f.filename).toBe('route_Car-1_2026-03-01.xlsx');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(f.data as ArrayBuffer);
    const ws = wb.worksheets[0];
    expect(ws.name).toBe('Car 1');
    expect(ws.rowCount).toBe(4);
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual([
      'Time',
      'Latitude',
      'Longitude',
      'Speed (km/h)',
      'Course',
      'Altitude',
      'Address',
    ]);
    // 10 kn = 18.52 km/h
    expect((ws.getRow(3).values as unknown[]).slice(1)).toEqual([
      '2026-03-01T12:00:15.000Z',
      -23.499,
      -46.599,
      18.52,
      45,
      700,
      'Av. Paulista, 1000',
    ]);
  });

  it('gpx, kml and csv text', async () => {
    const gpx = await buildRouteExport('gpx', 'Car 1', points, 'kmh', ROUTE_HEADERS_EN);
    expect(String(gpx.data).match(/<trkpt /g)).toHaveLength(3);
    const kml = await buildRouteExport('kml', 'Car 1', points, 'kmh', ROUTE_HEADERS_EN);
    expect(String(kml.data)).toContain('<coordinates>-46.6,-23.5,700 ');
    const csv = await buildRouteExport('csv', 'Car 1', points, 'mph', ROUTE_HEADERS_EN);
    const lines = String(csv.data).replace('\ufeff', '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Time,Latitude,Longitude,Speed (mph),Course,Altitude,Address');
    expect(lines[3]).toBe('2026-03-01T12:00:30.000Z,-23.498,-46.598,23.02,45,700,'); // 20 kn = 23.02 mph
    expect(csv.type).toContain('text/csv');
  });
});

describe('route in pages (issue #31)', () => {
  /** A fake server: /rastro/route answers pages of `all` by limit and after; /api/reports/route the whole. */
  function pagedServer(all: ReturnType<typeof raw>, paged = true) {
    const urls: string[] = [];
    const fetchImpl = vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://x');
      urls.push(`${url.pathname}${url.search}`);
      if (url.pathname === '/api/reports/route') return new Response(JSON.stringify(all), { status: 200 });
      if (!paged) return new Response('Not Found', { status: 404 });
      const limit = Number(url.searchParams.get('limit'));
      const after = url.searchParams.get('after');
      const start = after === null ? 0 : all.findIndex((p) => p.id === Number(after)) + 1;
      // the first page tells the route's extent (the server's ROUTE_EXTENT_HEADER)
      const headers: Record<string, string> =
        after === null ? { [ROUTE_EXTENT_HEADER]: '-46.6,-23.5,-46.578,-23.478' } : {};
      const page = all.slice(start, start + limit);
      const body = url.searchParams.get('format') === 'rows' ? page.map(routePageRowOf) : page;
      return new Response(JSON.stringify(body), { status: 200, headers });
    });
    const make = (base: string) =>
      createClient({ base, timeoutMs: 1000, fetchImpl: () => fetchImpl as unknown as typeof fetch });
    return { urls, client: make('/rastro'), traccar: make('/api') };
  }

  it('reads page after page, hands the route so far to onPage each time, and ends on a short page', async () => {
    const all = raw(23);
    const s = pagedServer(all);
    const seen: Array<[number, boolean, unknown]> = [];
    const r = await loadRoutePages(3, 'a', 'b', {
      client: s.client,
      traccar: s.traccar,
      sizes: { first: 5, next: 8 },
      onPage: (points, done, extent) => seen.push([points.length, done, extent]),
    });
    expect(seen).toEqual([
      [5, false, [-46.6, -23.5, -46.578, -23.478]],
      [13, false, null],
      [21, false, null],
      [23, true, null],
    ]);
    expect(r.ok && r.points.map((p) => p.id)).toEqual(all.map((p) => p.id));
    expect(s.urls).toEqual([
      '/rastro/route?deviceId=3&from=a&to=b&limit=5&format=rows',
      '/rastro/route?deviceId=3&from=a&to=b&limit=8&after=104&format=rows',
      '/rastro/route?deviceId=3&from=a&to=b&limit=8&after=112&format=rows',
      '/rastro/route?deviceId=3&from=a&to=b&limit=8&after=120&format=rows',
    ]);
  });

  it('a route of whole pages ends on an empty page; an empty period is no data', async () => {
    const s = pagedServer(raw(10));
    const seen: number[] = [];
    const r = await loadRoutePages(3, 'a', 'b', {
      client: s.client,
      sizes: { first: 5, next: 5 },
      onPage: (points) => seen.push(points.length),
    });
    expect(r.ok && r.points).toHaveLength(10);
    expect(seen).toEqual([5, 10, 10]);
    const none = pagedServer([]);
    const empty = await loadRoutePages(3, 'a', 'b', { client: none.client, onPage: () => {} });
    expect(empty).toEqual({ ok: false, error: 'route.noData' });
  });

  it('without the paged route (404: gateway mode) the route is read at once from /api/reports/route', async () => {
    const all = raw(7);
    const s = pagedServer(all, false);
    const seen: Array<[number, boolean]> = [];
    const r = await loadRoutePages(3, 'a', 'b', {
      client: s.client,
      traccar: s.traccar,
      onPage: (points, done) => seen.push([points.length, done]),
    });
    expect(r.ok && r.points).toHaveLength(7);
    expect(seen).toEqual([[7, true]]);
    expect(s.urls[1]).toBe('/api/reports/route?deviceId=3&from=a&to=b');
  });

  it('a failed or malformed later page is the route load error', async () => {
    const all = raw(12);
    for (const [status, body, key] of [
      [200, '[{"id":', 'route.badFormat'],
      [200, '[{"id":1,"latitude":"north"}]', 'route.invalidData'],
      [500, 'boom', 'route.invalidResponse'],
    ] as const) {
      let calls = 0;
      const fetchImpl = vi.fn(async () =>
        ++calls === 1
          ? new Response(JSON.stringify(all.slice(0, 5).map(routePageRowOf)), { status: 200 })
          : new Response(body, { status }),
      );
      const c = createClient({
        base: '/rastro',
        timeoutMs: 1000,
        fetchImpl: () => fetchImpl as typeof fetch,
      });
      const seen: number[] = [];
      const r = await loadRoutePages(3, 'a', 'b', {
        client: c,
        sizes: { first: 5, next: 5 },
        onPage: (points) => seen.push(points.length),
      });
      expect(r).toEqual({ ok: false, error: key });
      expect(seen).toEqual([5]);
    }
  });
});
