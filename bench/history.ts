// History with 100,000 points (issue #31), in Chromium (software WebGL) against an isolated embedded server (1
// simulated device, own DATA_DIR) whose store gets a synthetic 100,000-point drive of that device. Measured, from
// the click on "Show route": the first part drawn (its map source loaded and a frame rendered with it), the last
// page received, and the whole route drawn (map idle). Two ways, alternating in one run with the same build and
// data: "pages", what the history does (GET /{ns}/route, 2,000 then 25,000 positions a page as light rows
// (format=rows), the next page asked while one is drawn, each drawn as it arrives), and "one answer", the way
// before session 18 (the whole route in one answer, drawn at once: the paged route answers 404 and the same
// 100,000 positions come as one /api/reports/route answer through page.route, since the server caps that route at
// 50,000 per device). The page's period is today's, so both requests are pointed at the drive's period through
// page.route. The server side is measured from Node over HTTP: all pages (positions, then light rows), and the
// contract's /api/reports/route for 50,000 positions. Then playback at 16× for 6 s. Writes
// bench/results/history.md. Each load also prints counts the machine's load changes little (session 33): frames
// drawing most of the route (after the last answer), MapLibre's symbol placements and the symbols they placed, and
// the route's line sources held at the end.
//
//   node --import tsx bench/history.ts                      # BENCH_LOADS=3, BENCH_POINTS=100000
//   BENCH_COMPOSITING=software …   # Chromium's compositing: "gpu" (default, as bench/map.ts: frames handed to the
//                                  # compositor) or "software" (--disable-gpu: every WebGL frame read back, a cost
//                                  # no user's browser pays; sessions 18–24's figures), see bench/chromium.ts
//   BENCH_TRACE=/tmp/h.json …      # one more pages load (a fresh page) traced with every thread's CPU profile
//                                  # (each load also prints its browser CPU by thread, bench/browserThreads.ts)
//   BENCH_BUILDS='A=/tmp/a B=/tmp/b' …   # web builds (dist directories) alternating on one server, pages only,
//                                  # a fresh page per build and round (as bench/first-map-ab.ts); no playback;
//                                  # one build (BENCH_BUILDS=A=/tmp/a): the whole bench on that build
//   BENCH_SHOT=/tmp/h …            # with BENCH_BUILDS: a screenshot of each build's last load, /tmp/h-<build>.png
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import BetterSqlite3 from 'better-sqlite3';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { knotsToMps } from '@rastro/domain';
import { browserCpuSince, browserCpuSnapshot } from './browserCpu.ts';
import { browserThreadsSince, browserThreadsSnapshot } from './browserThreads.ts';
import { chromiumArgs, type Compositing } from './chromium.ts';
import { startBenchServer } from './server.ts';
import { traceProfile } from './traceProfile.ts';
import { combinedWebRoot, parseBuilds } from './webBuilds.ts';

const root = resolve(import.meta.dirname, '..');
const N = Number(process.env.BENCH_POINTS ?? 100_000);
const LOADS = Number(process.env.BENCH_LOADS ?? 3);
const PLAY_MS = 6000;
const STEP_MS = 10_000;
const PAGES = { first: 2_000, next: 25_000 };
const compositing: Compositing = process.env.BENCH_COMPOSITING === 'software' ? 'software' : 'gpu';
const args = chromiumArgs(compositing);
const builds = parseBuilds((process.env.BENCH_BUILDS ?? '').split(/\s+/));

/** A drive through São Paulo into the store: one fix every 10 s, speed 0–60 kn in waves, course along the path. */
function writeDrive(file: string, deviceId: number, end: number): void {
  const db = new BetterSqlite3(file);
  db.pragma('busy_timeout = 10000');
  const add = db.prepare(
    `INSERT INTO positions (deviceId, protocol, serverTime, deviceTime, fixTime, valid, latitude, longitude,
       altitude, speed, course, accuracy, attributes) VALUES (?, 'osmand', ?, ?, ?, 1, ?, ?, 760, ?, ?, 5, ?)`,
  );
  let lat = -23.55;
  let lon = -46.63;
  db.transaction(() => {
    for (let i = 0; i < N; i++) {
      const course = (i * 0.7) % 360;
      const speed = Math.max(0, 30 + 30 * Math.sin(i / 50));
      const step = (knotsToMps(speed) * 10) / 111_000;
      lat += step * Math.cos((course * Math.PI) / 180);
      lon += step * Math.sin((course * Math.PI) / 180);
      const t = new Date(end - (N - i) * STEP_MS).toISOString();
      add.run(
        deviceId,
        t,
        t,
        t,
        Number(lat.toFixed(6)),
        Number(lon.toFixed(6)),
        Number(speed.toFixed(2)),
        Number(course.toFixed(1)),
        JSON.stringify({ ignition: speed > 0, motion: speed > 1 }),
      );
    }
  })();
  db.close();
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const median = (xs: number[]) => pct(xs, 50);
const f0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '—');
const f1 = (x: number) => (Number.isFinite(x) ? x.toFixed(1) : '—');

interface Load {
  /** click → the first frame after the first page's source said it was loaded (its 'metadata': maybe no tile yet) */
  first: number;
  /** click → the first frame after the first page's tiles in view were in (the line on screen) */
  line: number;
  /** click → the first page's answer received (pages only) */
  firstReceived: number;
  received: number;
  drawn: number;
  /** frames the map rendered from the click to all drawn */
  frames: number;
  /** the route's map sources and layers once drawn */
  sources: number;
  layers: number;
  /**
   * What MapLibre holds for the route's line once drawn, a measure of its work that the machine's load does not
   * change: tiles of the route's sources, line vertices in them, and arrows (symbol instances)
   */
  work: { tiles: number; vertices: number; arrows: number };
  /**
   * Counts from the click to all drawn, which explain the time and which the machine's load changes little:
   * frames drawing most of the route (at least half its line vertices once drawn), all of them and those after the
   * last answer; frames whose symbol placement was new, the symbols placed in them (total and most in one frame);
   * the route's line sources held at the end (pieces; marks not counted)
   */
  counts: {
    wholeFrames: number;
    wholeAfterLast: number;
    placedFrames: number;
    placedTotal: number;
    placedMax: number;
    routeSources: number;
  };
  /**
   * One frame of the whole route once drawn, ms: the map rendered again at once (MapLibre's `_render`) and the GPU
   * waited for (one pixel read back: Chromium's WebGL `finish` only flushes), median of 7 after one not counted
   */
  frame: number;
  /** CPU time of the bench's Chromium (all its processes) during the load, ms */
  cpu: number;
  /** that CPU time by process type and thread, "type/thread ms, …" (bench/browserThreads.ts) */
  threads: string;
}

async function measureLoad(page: Page, n: number): Promise<Load> {
  const before = browserCpuSnapshot();
  const threadsBefore = browserThreadsSnapshot();
  const load = await page.evaluate(async (count) => {
    // (no named inner functions here: tsx would wrap them in a helper the page does not have)
    const map = window.__rastroMap!.map;
    const button = document.querySelector('[data-testid="history-load"]') as HTMLButtonElement;
    while (button.disabled || button.hasAttribute('data-loading'))
      await new Promise((r) => requestAnimationFrame(r));
    performance.clearResourceTimings();
    const st = {
      live: true,
      armed: false,
      tiles: false,
      first: NaN,
      line: NaN,
      frames: 0,
      start: performance.now(),
    };
    // first part drawn: the route's first source loaded with points in it, then a frame rendered
    // (MapLibre says a GeoJSON source is loaded at its 'metadata', once the data is indexed, before any tile is cut:
    // "first part drawn" since session 18; "line drawn" waits for a later event, its tiles in view in)
    map.on('sourcedata', (e: { sourceId?: string; isSourceLoaded?: boolean; sourceDataType?: string }) => {
      if (
        st.live &&
        e.sourceId === 'rastro-route' &&
        e.isSourceLoaded &&
        (window.__rastroRoute?.stats().points ?? 0) > 0
      ) {
        st.armed = true;
        if (!e.sourceDataType || e.sourceDataType === 'idle') st.tiles = true;
      }
    });
    // MapLibre's internals (not its API), for counts the machine's load does not change: each route source's tiles
    // and their buckets, and the symbol placement committed last
    type Bucket = {
      segments?: { get(): Array<{ vertexLength: number }> };
      symbolInstances?: { length: number };
    };
    type Tile = { buckets: Record<string, Bucket> };
    type Manager = { getRenderableIds(): string[]; getTileByID(id: string): Tile };
    const style = (map as unknown as { style: { tileManagers: Record<string, Manager>; placement?: object } })
      .style;
    // per frame: the route's line vertices drawn (in the sources whose line is shown) and the symbols placed
    // (MapLibre's placement of that frame: every symbol layer's, hidden pieces' arrows included), 0 when the frame
    // kept the placement before it
    const perFrame: Array<{ at: number; vertices: number; placed: number }> = [];
    let placement = style.placement;
    map.on('render', () => {
      if (st.live) st.frames++;
      const at = performance.now() - st.start;
      if (st.live) {
        let vertices = 0;
        for (const [id, manager] of Object.entries(style.tileManagers)) {
          if (!id.startsWith('rastro-route') || id === 'rastro-route-marks') continue;
          const line =
            id === 'rastro-route' ? 'rastro-route-line' : id.replace('rastro-route', 'rastro-route-line');
          if (!map.getLayer(line) || map.getPaintProperty(line, 'line-opacity') === 0) continue;
          if (map.getLayoutProperty(line, 'visibility') === 'none') continue;
          for (const key of manager.getRenderableIds())
            for (const bucket of Object.values(manager.getTileByID(key).buckets))
              if (!bucket.symbolInstances)
                for (const seg of bucket.segments?.get() ?? []) vertices += seg.vertexLength;
        }
        const now = style.placement;
        const placed =
          now && now !== placement
            ? Object.keys((now as { placements: Record<string, unknown> }).placements).length
            : 0;
        placement = now;
        perFrame.push({ at, vertices, placed });
      }
      if (st.live && st.armed && Number.isNaN(st.first)) st.first = at;
      if (st.live && st.tiles && Number.isNaN(st.line)) st.line = at;
    });
    button.click();
    const deadline = st.start + 600_000;
    while ((window.__rastroRoute?.stats().points ?? 0) !== count) {
      if (performance.now() > deadline) throw new Error('route not drawn in 600 s');
      await new Promise((r) => requestAnimationFrame(r));
    }
    const entries = performance
      .getEntriesByType('resource')
      .filter((e) => /\/route\?/.test(e.name)) as PerformanceResourceTiming[];
    const received = entries.length ? Math.max(...entries.map((e) => e.responseEnd)) - st.start : NaN;
    const firstReceived = entries.length ? Math.min(...entries.map((e) => e.responseEnd)) - st.start : NaN;
    // all drawn: every piece's source processed and a frame rendered with them
    for (let i = 0; i < 40; i++) {
      map.triggerRepaint();
      await new Promise((r) => map.once('idle', r));
      const ids = Object.keys(map.getStyle().sources).filter((id) => id.startsWith('rastro-route'));
      if (map.loaded() && ids.every((id) => map.isSourceLoaded(id))) break;
    }
    const drawn = performance.now() - st.start;
    st.live = false;
    const spec = map.getStyle();
    const work = { tiles: 0, vertices: 0, arrows: 0 };
    for (const [id, manager] of Object.entries(style.tileManagers)) {
      if (!id.startsWith('rastro-route') || id === 'rastro-route-marks') continue;
      for (const key of manager.getRenderableIds()) {
        work.tiles++;
        for (const bucket of Object.values(manager.getTileByID(key).buckets)) {
          if (bucket.symbolInstances) work.arrows += bucket.symbolInstances.length;
          else for (const seg of bucket.segments?.get() ?? []) work.vertices += seg.vertexLength;
        }
      }
    }
    // frames drawing most of the route (at least half its vertices once drawn), all and after the last answer
    const most = perFrame.filter((f) => f.vertices * 2 >= work.vertices);
    const placed = perFrame.map((f) => f.placed);
    const counts = {
      wholeFrames: most.length,
      wholeAfterLast: most.filter((f) => f.at >= received).length,
      placedFrames: placed.filter((x) => x > 0).length,
      placedTotal: placed.reduce((a, b) => a + b, 0),
      placedMax: Math.max(0, ...placed),
      routeSources: Object.keys(style.tileManagers).filter(
        (id) => id.startsWith('rastro-route') && id !== 'rastro-route-marks',
      ).length,
    };
    return {
      work,
      counts,
      first: Number.isNaN(st.first) ? drawn : st.first,
      line: Number.isNaN(st.line) ? drawn : st.line,
      firstReceived,
      received,
      drawn,
      frames: st.frames,
      sources: Object.keys(spec.sources).filter((id) => id.startsWith('rastro-route')).length,
      layers: spec.layers.filter((l) => l.id.startsWith('rastro-route')).length,
    };
  }, n);
  const cpu = browserCpuSince(before);
  const threads = browserThreadsSince(threadsBefore)
    .map(([name, ms]) => `${name} ${ms}`)
    .join(', ');
  const frame = await page.evaluate(() => {
    const map = window.__rastroMap!.map;
    // one frame of the whole route, the GPU's part included: rendered again at once and waited for
    const internals = map as unknown as {
      _render(at: number): void;
      painter: { context: { gl: WebGLRenderingContext } };
    };
    const gl = internals.painter.context.gl;
    const pixel = new Uint8Array(4);
    const costs: number[] = [];
    for (let i = 0; i < 8; i++) {
      const t = performance.now();
      internals._render(t);
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, pixel);
      if (i > 0) costs.push(performance.now() - t);
    }
    costs.sort((a, b) => a - b);
    return costs[Math.floor(costs.length / 2)];
  });
  return { ...load, frame, cpu, threads };
}

/** The server's answer from Node: every page of the route in turn, and the contract's route (50,000 positions). */
async function serverTimes(base: string, cookie: string, deviceId: number, q: string) {
  const get = async (path: string) => {
    const res = await fetch(`${base}${path}`, { headers: { cookie } });
    const text = await res.text();
    if (!res.ok) throw new Error(`${path}: ${res.status} ${text.slice(0, 200)}`);
    return text;
  };
  const pages: number[] = [];
  const rows: number[] = [];
  const firstRows: number[] = [];
  const contract: number[] = [];
  let bytes = 0;
  let rowsBytes = 0;
  let whole = '';
  for (let k = 0; k < LOADS; k++) {
    const a = performance.now();
    const parts: string[] = [];
    let after = '';
    let size = 0;
    for (let limit = PAGES.first; ; limit = PAGES.next) {
      const text = await get(`/rastro/route?deviceId=${deviceId}&${q}&limit=${limit}${after}`);
      const page = JSON.parse(text) as Array<{ id: number }>;
      size += text.length;
      if (page.length) parts.push(text.slice(1, -1));
      if (page.length < limit) break;
      after = `&after=${page[page.length - 1].id}`;
    }
    pages.push(performance.now() - a);
    bytes = size;
    whole = `[${parts.join(',')}]`;
    // the light pages the history reads (format=rows, domain routePageRow)
    const r = performance.now();
    let rowsAfter = '';
    let rowsSize = 0;
    for (let limit = PAGES.first; ; limit = PAGES.next) {
      const text = await get(
        `/rastro/route?deviceId=${deviceId}&${q}&limit=${limit}&format=rows${rowsAfter}`,
      );
      const page = JSON.parse(text) as Array<[number]>;
      rowsSize += text.length;
      if (!rowsAfter) firstRows.push(performance.now() - r);
      if (page.length < limit) break;
      rowsAfter = `&after=${page[page.length - 1][0]}`;
    }
    rows.push(performance.now() - r);
    rowsBytes = rowsSize;
    const b = performance.now();
    await get(`/api/reports/route?deviceId=${deviceId}&${q}`);
    contract.push(performance.now() - b);
  }
  return {
    pages: median(pages),
    rows: median(rows),
    firstRows: median(firstRows),
    contract: median(contract),
    mb: bytes / 1e6,
    rowsMb: rowsBytes / 1e6,
    whole,
  };
}

interface Setup {
  base: string;
  deviceId: number;
  from: string;
  to: string;
  whole: string;
}

/** A page on /history with the bench's routes: the way it reads (`mode()`), the drive's period, empty extras. */
async function openHistory(browser: Browser, s: Setup, mode: () => 'empty' | 'pages' | 'one answer') {
  const context: BrowserContext = await browser.newContext({
    baseURL: s.base,
    viewport: { width: 1280, height: 800 },
  });
  await context.addInitScript(() => window.localStorage.setItem('mapStyle', 'offline'));
  const page = await context.newPage();
  const login = await page.request.post('/api/session', { form: { email: 'admin', password: 'admin' } });
  if (!login.ok()) throw new Error(`login failed ${login.status()}`);
  const period = (url: string) => {
    const u = new URL(url);
    u.searchParams.set('from', s.from);
    u.searchParams.set('to', s.to);
    return u.toString();
  };
  await page.route('**/rastro/route?**', (r) =>
    mode() === 'pages'
      ? r.continue({ url: period(r.request().url()) })
      : mode() === 'empty'
        ? r.fulfill({ status: 200, contentType: 'application/json', body: '[]' })
        : r.fulfill({ status: 404, contentType: 'text/plain', body: 'Not Found' }),
  );
  await page.route('**/api/reports/route?**', (r) =>
    r.fulfill({ status: 200, contentType: 'application/json', body: s.whole }),
  );
  for (const kind of ['stops', 'events', 'trips'])
    await page.route(`**/api/reports/${kind}?**`, (r) =>
      r.fulfill({ status: 200, contentType: 'application/json', body: '[]' }),
    );
  await page.goto(`/history?deviceId=${s.deviceId}`);
  await page.getByTestId('history-error').waitFor({ timeout: 120_000 }); // the auto-load, answered empty
  await page.waitForFunction(() => window.__rastroMap?.map.loaded(), null, { timeout: 120_000 });
  return { context, page };
}

const med = (xs: Load[], k: Exclude<keyof Load, 'threads' | 'work' | 'counts'>) =>
  f0(median(xs.map((x) => x[k])));
const row = (m: string, xs: Load[]) =>
  `| ${m} | ${med(xs, 'first')} ms | ${med(xs, 'line')} ms | ${med(xs, 'firstReceived')} ms | ${med(xs, 'received')} ms | ${med(xs, 'drawn')} ms | ${xs.map((x) => f0(x.drawn)).join(' / ')} | ${med(xs, 'frames')} | ${med(xs, 'frame')} ms | ${med(xs, 'cpu')} ms | ${work(xs[xs.length - 1])} | ${counted(xs)} |`;
/** The counts' medians (Load.counts): route frames (after the last answer) · placements, symbols placed (most in one) · sources. */
const counted = (xs: Load[]) => {
  const m = (k: keyof Load['counts']) => median(xs.map((x) => x.counts[k])).toLocaleString('en-US');
  return `${m('wholeFrames')} (${m('wholeAfterLast')}) · ${m('placedFrames')}, ${m('placedTotal')} (${m('placedMax')}) · ${m('routeSources')}`;
};
/** The route's tiles / line vertices / arrows once drawn (the last load's: the same in every load of a build). */
const work = (x: Load | undefined) =>
  x ? [x.work.tiles, x.work.vertices, x.work.arrows].map((v) => v.toLocaleString('en-US')).join(' / ') : '—';
const TABLE_HEAD = [
  '| way | click → first part drawn | click → its line drawn (tiles in) | click → first answer received | click → last answer received | click → all drawn (map idle) | all drawn, each load | frames rendered | one frame of the route | browser CPU | route tiles / vertices / arrows | frames of most of the route (after the last answer) · placements, symbols placed (most in one frame) · line sources |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|',
];
/** The threads of the load whose "all drawn" is the median (bench/browserThreads.ts). */
const medianThreads = (m: string, xs: Load[]) =>
  `${m}, browser CPU by thread of the median load (ms): ${[...xs].sort((a, b) => a.drawn - b.drawn)[Math.floor(xs.length / 2)]?.threads ?? '—'}.`;
const logLoad = (m: string, r: Load) =>
  console.log(
    `${m}: first ${f0(r.first)} ms, its line ${f0(r.line)} ms (its answer ${f0(r.firstReceived)} ms), received ${f0(r.received)} ms, drawn ${f0(r.drawn)} ms, ${r.frames} frames (one ${f0(r.frame)} ms), browser CPU ${f0(r.cpu)} ms, route tiles ${r.work.tiles} / vertices ${r.work.vertices} / arrows ${r.work.arrows}\n  counts: ${r.counts.wholeFrames} frames of most of the route (${r.counts.wholeAfterLast} after the last answer), ${r.counts.placedFrames} placements placing ${r.counts.placedTotal} symbols (${r.counts.placedMax} in one), ${r.counts.routeSources} line sources\n  by thread (ms): ${r.threads}`,
  );

/** BENCH_BUILDS: the builds' pages loads alternating (A B, B A, …), a fresh page each. */
async function abLoads(browser: Browser, s: Setup, count: number, webRoot: string): Promise<string[]> {
  const results = new Map<string, Load[]>(builds.map(([name]) => [name, []]));
  const startLoad = loadavg()[0];
  for (let k = 0; k < LOADS; k++)
    for (const [name] of k % 2 ? [...builds].reverse() : builds) {
      copyFileSync(join(webRoot, `index-${name}.html`), join(webRoot, 'index.html'));
      let mode: 'empty' | 'pages' = 'empty';
      const { context, page } = await openHistory(browser, s, () => mode);
      mode = 'pages';
      const r = await measureLoad(page, count);
      results.get(name)!.push(r);
      logLoad(`${name} pages`, r);
      if (process.env.BENCH_SHOT && k === LOADS - 1)
        await page.screenshot({ path: `${process.env.BENCH_SHOT}-${name}.png` });
      await context.close();
    }
  return [
    `## History A/B (\`bench/history.ts\`, BENCH_BUILDS), ${compositing} compositing`,
    '',
    `${builds.map(([n, d]) => `${n} = ${d}`).join(', ')}; pages only, alternating, a fresh page each, median of ${LOADS}.`,
    `${N.toLocaleString('en-US')} points; load average ${startLoad.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end.`,
    '',
    ...TABLE_HEAD,
    ...builds.map(([name]) => row(name, results.get(name)!)),
    '',
    ...builds.map(([name]) => medianThreads(name, results.get(name)!)),
    '',
  ];
}

async function main() {
  const webRoot = builds.length ? combinedWebRoot('history-ab', builds) : null;
  const server = await startBenchServer({
    name: 'history',
    devices: 1,
    intervalMs: 60_000,
    env: webRoot ? { WEB_ROOT: webRoot } : {},
  });
  const base = server.url;
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args,
  });
  let lines: string[];
  try {
    const login = await fetch(`${base}/api/session`, {
      method: 'POST',
      body: new URLSearchParams({ email: 'admin', password: 'admin' }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const devices = (await (await fetch(`${base}/api/devices`, { headers: { cookie } })).json()) as Array<{
      id: number;
    }>;
    const deviceId = devices[0].id;
    // the drive ends a day ago (the simulator's own positions are today's)
    const end = Date.now() - 86_400_000;
    writeDrive(join(server.dir, 'rastro.db'), deviceId, end);
    const from = new Date(end - (N + 1) * STEP_MS).toISOString();
    const to = new Date(end).toISOString();
    const q = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
    const answer = await serverTimes(base, cookie, deviceId, q);
    // the period also holds the demo fleet's seeded history of that device: the route drawn is what the pages hold
    const count = (JSON.parse(answer.whole) as unknown[]).length;
    console.log(
      `server: pages ${f0(answer.pages)} ms, light pages ${f0(answer.rows)} ms, /api/reports/route (50,000) ${f0(answer.contract)} ms`,
    );
    const setup: Setup = { base, deviceId, from, to, whole: answer.whole };
    if (builds.length > 1 && webRoot) lines = await abLoads(browser, setup, count, webRoot);
    else lines = await oneBuild(browser, setup, count, answer);
  } finally {
    await browser.close();
    await server.stop();
    if (webRoot) rmSync(resolve(webRoot, '..'), { recursive: true, force: true });
  }
  mkdirSync(join(root, 'bench', 'results'), { recursive: true });
  const out = join(root, 'bench', 'results', builds.length > 1 ? 'history-ab.md' : 'history.md');
  writeFileSync(out, lines.join('\n'));
  console.log(lines.join('\n'));
  console.log(`wrote ${out}`);
}

/** The served build: pages and one answer alternating, an optional traced load, then playback. */
async function oneBuild(
  browser: Browser,
  setup: Setup,
  count: number,
  answer: Awaited<ReturnType<typeof serverTimes>>,
): Promise<string[]> {
  let mode: 'empty' | 'pages' | 'one answer' = 'empty';
  const { context, page } = await openHistory(browser, setup, () => mode);
  const results: Record<string, Load[]> = { pages: [], 'one answer': [] };
  for (let k = 0; k < LOADS; k++)
    for (const m of ['pages', 'one answer'] as const) {
      mode = m;
      const r = await measureLoad(page, count);
      results[m].push(r);
      logLoad(m, r);
    }
  mode = 'pages';
  if (process.env.BENCH_TRACE) {
    // one more load of the pages on a fresh page (as BENCH_BUILDS' loads: the map's programs not yet linked),
    // traced with every thread's CPU profile (BENCH_TRACE names the trace file)
    let traceMode: 'empty' | 'pages' = 'empty';
    const fresh = await openHistory(browser, setup, () => traceMode);
    traceMode = 'pages';
    const traced = await traceProfile(browser, fresh.page, process.env.BENCH_TRACE, () =>
      measureLoad(fresh.page, count),
    );
    await fresh.context.close();
    logLoad('traced pages', traced.result);
    console.log(traced.summary);
  }
  const pieces = await page.evaluate(() => window.__rastroRoute!.stats());
  const last = results.pages[results.pages.length - 1];
  await page.getByTestId('history-table-scroll').waitFor();
  await page.evaluate(() => {
    window.__rastroPlayback!.setSpeed(16);
    window.__rastroPlayback!.play();
  });
  await page.waitForTimeout(PLAY_MS);
  const { costs, intervals } = await page.evaluate(() => ({
    costs: window.__rastroPlayback!.costs(),
    intervals: window.__rastroPlayback!.intervals(),
  }));
  await page.getByTestId('history-play').click();
  const domRows = await page.locator('[data-testid="history-row"]').count();
  await context.close();
  return [
    '## History with 100,000 points (`bench/history.ts`)',
    '',
    `Chromium (Debian, software WebGL through SwiftShader, ${compositing} compositing), 1280×800, offline map style, the production build served by`,
    `an isolated embedded server (SQLite) holding a synthetic ${N.toLocaleString('en-US')}-point drive of one device (a fix every`,
    '10 s). Times from the click on "Show route". "pages": what the history does (GET /{ns}/route, 2,000 then 25,000',
    'positions a page as light rows, the next asked while one is drawn; since session 23 the first page drawn at once',
    'and the rest together in a second map source). "one answer": the same points as one answer',
    '(/api/reports/route through page.route; the paged route answers 404), drawn at once, as before session 18.',
    `Alternating, median of ${LOADS} loads each. Machine: ${cpus().length} cores shared with other work (noisy), Node`,
    `${process.version}, load average ${loadavg()[0].toFixed(1)} at the end.`,
    '',
    ...TABLE_HEAD,
    row('pages', results.pages),
    row('one answer', results['one answer']),
    '',
    medianThreads('pages', results.pages),
    medianThreads('one answer', results['one answer']),
    '',
    `Server, from Node over HTTP (median of ${LOADS}): all ${N.toLocaleString('en-US')} positions in pages ${f0(answer.pages)} ms`,
    `(${f1(answer.mb)} MB of JSON); the same as the light pages the history reads (format=rows) ${f0(answer.rows)} ms, its first page ${f0(answer.firstRows)} ms`,
    `(${f1(answer.rowsMb)} MB); the contract's /api/reports/route for one device (capped at 50,000) ${f0(answer.contract)} ms.`,
    `Pages: the route in ${last.sources} map sources and ${last.layers} layers (the marks included), ${pieces.runs} colour features. Playback at 16× for ${PLAY_MS / 1000} s: frame cost median`,
    `${f1(median(costs))} ms (p99 ${f1(pct(costs, 99))} ms), frame interval median ${f1(median(intervals))} ms (p99`,
    `${f1(pct(intervals, 99))} ms); ${domRows} table rows in the DOM.`,
    '',
  ];
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
