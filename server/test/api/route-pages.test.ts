// GET /{ns}/route (issue #31): a device's route in pages that follow each other with `after=<last id>`; together
// they are exactly the whole answer of GET /api/reports/route (and of GET /api/positions with from/to), which are
// the positions as positionFromRow maps them, rows only JS can write (odd stored values) included. Bad parameters
// are a translated 400. Runs on SQLite (JSON written by the query) and on PostgreSQL (JS path).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatMessage,
  parseRouteExtent,
  ROUTE_EXTENT_HEADER,
  routePageRow,
  routePageRowOf,
  type Position,
} from '@rastro/domain';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { positionFromRow, type PositionDbRow } from '../../src/live/json.ts';
import { RouteJsonReader } from '../../src/live/reports/routeJson.ts';
import { select, update } from '../support/testSql.ts';

let t: TestApp;
let ns: string;
let deviceId: number;
let otherId: number;
const N = 230;
const T0 = Math.floor((Date.now() - 3 * 86_400_000) / 1000) * 1000;
const FROM = new Date(T0 - 1000).toISOString();
const TO = new Date(T0 + N * 30_000).toISOString().replace('Z', '+00:00');
const period = `from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`;

beforeAll(async () => {
  t = await makeTestApp();
  ns = t.ctx.config.ns;
  const d = await createDevice(t);
  const o = await createDevice(t);
  deviceId = d.id;
  otherId = o.id;
  const live = getLive(t.ctx);
  // arrival order is not fix time order: the pages follow fix time
  const order = Array.from({ length: N }, (_, i) => (i * 37) % N);
  const results = await live.ingestMany([
    ...order.map((i) => ({
      deviceId,
      protocol: 'osmand',
      fixTime: new Date(T0 + i * 30_000),
      latitude: -23.5 + i * 0.0001,
      longitude: -46.6 - i * 0.00013,
      speed: (i % 40) * 1.1,
      course: (i * 7) % 360,
      altitude: 700 + i / 3,
      attributes: { ignition: i % 2 === 0, fuel: 12.5 + i, note: `p${i}` },
    })),
    {
      deviceId: otherId,
      protocol: 'osmand',
      fixTime: new Date(T0),
      latitude: 1,
      longitude: 1,
      attributes: {},
    },
  ]);
  expect(results.every((r) => r.ok)).toBe(true);
  // stored values the query cannot write as JS does: the JS path answers those rows
  const sql = t.ctx.store.sql;
  const ids = (
    (await select(sql, 'positions', { deviceId }, { columns: ['id'], orderBy: ['fixTime', 'id'] })) as Array<{
      id: number;
    }>
  ).map((r) => r.id);
  const set = async (id: number, column: string, value: unknown) =>
    await update(sql, 'positions', { [column]: value }, { id });
  await set(ids[3], 'attributes', 'not json');
  await set(ids[4], 'attributes', '[1,2]');
  await set(ids[5], 'network', '{"radioType":"gsm","cellTowers":[]}');
  await set(ids[6], 'geofenceIds', '[3,4]');
  await set(ids[7], 'address', 'Rua "A", 10 \\ São Paulo\n');
  await set(ids[8], 'serverTime', '2026-03-02T10:00:00+02:00');
  await set(ids[9], 'valid', 0);
  await set(ids[10], 'protocol', null);
  await set(ids[11], 'network', 'not json');
  await set(ids[12], 'speed', 0.1 + 0.2);
  // the same fix time without its milliseconds (the order stays): the light row's time is then written by JS
  await set(ids[13], 'fixTime', new Date(T0 + 13 * 30_000).toISOString().replace('.000Z', 'Z'));
});
afterAll(async () => {
  await t.close();
});

type Json = Record<string, unknown> & { id: number };

/** Every page of the route at `limit`, following `after`, until a short page. */
async function allPages(limit: number): Promise<{ pages: Json[][]; items: Json[] }> {
  const pages: Json[][] = [];
  let after = '';
  for (let k = 0; k < 1000; k++) {
    const url = `/${ns}/route?deviceId=${deviceId}&${period}&limit=${limit}${after}`;
    const page = expectStatus<Json[]>(await api(t.app, t.admin, 'GET', url), 200);
    pages.push(page);
    if (page.length < limit) break;
    after = `&after=${page[page.length - 1].id}`;
  }
  return { pages, items: pages.flat() };
}

/** Every light page (format=rows) at `limit`, following `after` (a row's first element), until a short page. */
async function allRowPages(limit: number): Promise<unknown[][][]> {
  const pages: unknown[][][] = [];
  let after = '';
  for (let k = 0; k < 1000; k++) {
    const url = `/${ns}/route?deviceId=${deviceId}&${period}&limit=${limit}&format=rows${after}`;
    const page = expectStatus<unknown[][]>(await api(t.app, t.admin, 'GET', url), 200);
    pages.push(page);
    if (page.length < limit) break;
    after = `&after=${String(page[page.length - 1][0])}`;
  }
  return pages;
}

describe('GET /{ns}/route', () => {
  it('pages follow each other and together equal the whole route answer and the stored rows', async () => {
    const whole = expectStatus<Json[]>(
      await api(t.app, t.admin, 'GET', `/api/reports/route?deviceId=${deviceId}&${period}`),
      200,
    );
    const rows = (await select(
      t.ctx.store.sql,
      'positions',
      { deviceId },
      { orderBy: ['fixTime', 'id'] },
    )) as PositionDbRow[];
    expect(whole).toHaveLength(N);
    expect(whole).toEqual(rows.map(positionFromRow));
    const positions = expectStatus<Json[]>(
      await api(t.app, t.admin, 'GET', `/api/positions?deviceId=${deviceId}&${period}`),
      200,
    );
    expect(positions).toEqual(whole);

    for (const limit of [7, 50, N, N + 1]) {
      const { pages, items } = await allPages(limit);
      expect(items).toEqual(whole);
      expect(pages).toHaveLength(Math.floor(N / limit) + 1);
      expect(pages.slice(0, -1).every((p) => p.length === limit)).toBe(true);
    }
    // the default page is the whole of this short route
    const one = await api(t.app, t.admin, 'GET', `/${ns}/route?deviceId=${deviceId}&${period}`);
    expect(expectStatus(one, 200)).toEqual(whole);
  });

  it('light pages (format=rows) are the same positions as routePageRow rows, odd stored values included', async () => {
    const whole = expectStatus<Position[]>(
      await api(t.app, t.admin, 'GET', `/api/reports/route?deviceId=${deviceId}&${period}`),
      200,
    );
    const expected = whole.map(routePageRowOf);
    for (const limit of [7, 50, N + 1]) {
      const pages = await allRowPages(limit);
      expect(pages).toHaveLength(Math.floor(N / limit) + 1);
      const rows = pages.flat();
      expect(rows).toEqual(expected);
      expect(rows.every((r) => routePageRow.safeParse(r).success)).toBe(true);
    }
    // the first light page tells the extent too
    const first = await api(
      t.app,
      t.admin,
      'GET',
      `/${ns}/route?deviceId=${deviceId}&${period}&limit=10&format=rows`,
    );
    expect(parseRouteExtent(first.headers[ROUTE_EXTENT_HEADER] as string)).not.toBeNull();
    // a page of plain rows is one text written by the query on SQLite; a page with an odd row, row by row
    const reader = new RouteJsonReader(t.ctx.store.sql);
    const upper = new Date(T0 + N * 30_000 + 1).toISOString();
    const plain = await reader.rows(deviceId, FROM, upper, 50, await reader.cursor(deviceId, whole[20].id));
    expect(plain).toHaveLength(t.ctx.store.sql.dialect === 'sqlite' ? 1 : 50);
    expect(JSON.parse(`[${plain.join(',')}]`)).toEqual(expected.slice(21, 71));
    const odd = await reader.rows(deviceId, FROM, upper, 20, null);
    expect(odd).toHaveLength(20);
    expect(JSON.parse(`[${odd.join(',')}]`)).toEqual(expected.slice(0, 20));
  });

  it('a period narrower than the route: its pages are exactly that part', async () => {
    const from = new Date(T0 + 50 * 30_000).toISOString();
    const to = new Date(T0 + 90 * 30_000).toISOString();
    const q = `from=${from}&to=${to}`;
    const whole = expectStatus<Json[]>(
      await api(t.app, t.admin, 'GET', `/api/reports/route?deviceId=${deviceId}&${q}`),
      200,
    );
    expect(whole).toHaveLength(41);
    const first = expectStatus<Json[]>(
      await api(t.app, t.admin, 'GET', `/${ns}/route?deviceId=${deviceId}&${q}&limit=30`),
      200,
    );
    const after = first[first.length - 1].id;
    const second = expectStatus<Json[]>(
      await api(t.app, t.admin, 'GET', `/${ns}/route?deviceId=${deviceId}&${q}&limit=30&after=${after}`),
      200,
    );
    expect([...first, ...second]).toEqual(whole);
    expect(second).toHaveLength(11);
  });

  it("the first page tells the whole period's extent in a header, the next ones do not", async () => {
    const rows = (await select(
      t.ctx.store.sql,
      'positions',
      { deviceId },
      { columns: ['latitude', 'longitude'] },
    )) as Array<{ latitude: number; longitude: number }>;
    const lats = rows.map((r) => r.latitude);
    const lons = rows.map((r) => r.longitude);
    const expected = [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
    const url = `/${ns}/route?deviceId=${deviceId}&${period}&limit=10`;
    const first = await api(t.app, t.admin, 'GET', url);
    expect(first.statusCode).toBe(200);
    expect(parseRouteExtent(first.headers[ROUTE_EXTENT_HEADER] as string)).toEqual(expected);
    const last = (first.json() as Json[])[9].id;
    const next = await api(t.app, t.admin, 'GET', `${url}&after=${last}`);
    expect(next.statusCode).toBe(200);
    expect(next.headers[ROUTE_EXTENT_HEADER]).toBeUndefined();
    // an empty period: no extent
    const empty = `from=2001-01-01T00:00:00Z&to=2001-01-02T00:00:00Z`;
    const none = await api(t.app, t.admin, 'GET', `/${ns}/route?deviceId=${deviceId}&${empty}`);
    expect(none.body).toBe('[]');
    expect(none.headers[ROUTE_EXTENT_HEADER]).toBeUndefined();
  });

  it('a page of plain rows is written and joined by its query (SQLite), the same positions as row by row', async () => {
    const sql = t.ctx.store.sql;
    const rows = (await select(
      sql,
      'positions',
      { deviceId },
      { orderBy: ['fixTime', 'id'] },
    )) as PositionDbRow[];
    const reader = new RouteJsonReader(sql);
    // after the odd rows (ids[3 … 12]): 50 positions the query writes
    const after = await reader.cursor(deviceId, rows[20].id);
    const upper = new Date(T0 + N * 30_000 + 1).toISOString();
    const texts = await reader.texts(deviceId, FROM, upper, 50, after);
    expect(JSON.parse(`[${texts.join(',')}]`)).toEqual(rows.slice(21, 71).map(positionFromRow));
    expect(texts).toHaveLength(sql.dialect === 'sqlite' ? 1 : 50);
    // a page holding an odd row is read row by row, in order
    const odd = await reader.texts(deviceId, FROM, upper, 20, null);
    expect(JSON.parse(`[${odd.join(',')}]`)).toEqual(rows.slice(0, 20).map(positionFromRow));
    expect(await reader.texts(deviceId, upper, upper, 20, null)).toEqual([]);
  });

  it('bad parameters are a translated 400', async () => {
    const url = (q: string) => `/${ns}/route?${q}`;
    const good = `deviceId=${deviceId}&${period}`;
    const bad = [
      url(period),
      url(`deviceId=${deviceId}`),
      url(`deviceId=abc&${period}`),
      url(`deviceId=0&${period}`),
      url(`deviceId=${deviceId}&from=yesterday&to=${encodeURIComponent(TO)}`),
      url(`deviceId=${deviceId}&from=${encodeURIComponent(TO)}&to=${encodeURIComponent(FROM)}`),
      url(`${good}&limit=0`),
      url(`${good}&limit=50001`),
      url(`${good}&limit=ten`),
      url(`${good}&limit=1.5`),
      url(`${good}&after=-1`),
      url(`${good}&after=x`),
      url(`${good}&limit=5&limit=6`),
      url(`${good}&format=xml`),
    ];
    const en = formatMessage('route.pageQuery', 'en-US');
    const es = formatMessage('route.pageQuery', 'es');
    for (const u of bad) {
      const res = await t.app.inject({
        method: 'GET',
        url: u,
        headers: { cookie: t.admin, 'accept-language': 'en-US' },
      });
      expect({ u, status: res.statusCode }).toEqual({ u, status: 400 });
      expect(res.body).toContain(en);
    }
    const es400 = await t.app.inject({
      method: 'GET',
      url: url(`${good}&limit=0`),
      headers: { cookie: t.admin, 'accept-language': 'es' },
    });
    expect(es400.statusCode).toBe(400);
    expect(es400.body).toContain(es);
    // a cursor that is not a position of this device
    const [other] = (await select(
      t.ctx.store.sql,
      'positions',
      { deviceId: otherId },
      { columns: ['id'] },
    )) as Array<{
      id: number;
    }>;
    for (const id of [other.id, 999_999_999]) {
      const res = await t.app.inject({
        method: 'GET',
        url: url(`${good}&after=${id}`),
        headers: { cookie: t.admin, 'accept-language': 'pt-BR' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(formatMessage('route.pageCursor', 'pt-BR', { id }));
    }
  });

  it('the route report rules: the device must be visible, reports not disabled', async () => {
    const u = await createUser(t);
    const noReports = await createUser(t, { disableReports: true });
    await link(t, { userId: noReports.id, deviceId });
    const q = `deviceId=${deviceId}&${period}`;
    for (const who of [u.cookie, noReports.cookie]) {
      const page = await api(t.app, who, 'GET', `/${ns}/route?${q}&limit=10`);
      const report = await api(t.app, who, 'GET', `/api/reports/route?${q}`);
      expect(report.statusCode).toBeGreaterThanOrEqual(400);
      expect({ status: page.statusCode, body: page.body }).toEqual({
        status: report.statusCode,
        body: report.body,
      });
    }
    await link(t, { userId: u.id, deviceId });
    const page = expectStatus<Json[]>(await api(t.app, u.cookie, 'GET', `/${ns}/route?${q}&limit=10`), 200);
    expect(page).toHaveLength(10);
  });
});
