// Map benchmark (issue #4): Playwright + Chromium (software WebGL) against an isolated embedded server whose
// simulator moves SIM_DEVICES devices at ~1,000 positions/s. For 100, 1,000 and 10,000 devices it measures:
// login → all markers drawn, main-thread long tasks (share of time and the longest) during steady live updates and
// while panning, JS heap, and the device-list filtering time per keystroke (in the page and as pure computation).
// Writes bench/results/map.md. Usage: node --import tsx bench/map.ts [counts…]
import { chromium, type Page } from '@playwright/test';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromiumArgs, type Compositing } from './chromium.ts';
import { startBenchServer } from './server.ts';
import { markersDrawn } from './markersDrawn.ts';
import { createDeviceFilter, DEFAULT_FILTER_STATE, type Device } from '@rastro/domain';

const root = resolve(import.meta.dirname, '..');

/** The map's test hook (web/src/features/map/MapView.tsx), as far as the benchmark reads it. */
interface MapHook {
  __rastroMap?: {
    featureCount(): number;
    map: {
      once(type: string, fn: () => void): void;
      panBy(offset: [number, number], options: { duration: number }): void;
    };
  };
}
const counts = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const SIZES = counts.length ? counts : [100, 1000, 10000];
const STEADY_MS = 10_000;
const PAN_MS = 5_000;
const SCROLL_MS = 5_000;
/** Page loads per row for "login → all markers drawn" (BENCH_MAP_LOADS). */
const LOADS = Math.max(1, Number(process.env.BENCH_MAP_LOADS ?? 5));
/** Long tasks observed since the last call: [total ms, longest ms, count]. */
async function takeLongTasks(page: Page): Promise<{ total: number; longest: number; count: number }> {
  return page.evaluate(() => {
    const w = window as unknown as { __lt: number[] };
    const list = w.__lt.splice(0);
    return { total: list.reduce((a, b) => a + b, 0), longest: Math.max(0, ...list), count: list.length };
  });
}

async function frames(page: Page, ms: number): Promise<number> {
  return page.evaluate(
    (ms) =>
      new Promise<number>((done) => {
        let n = 0;
        const end = performance.now() + ms;
        const tick = () => {
          n++;
          if (performance.now() < end) requestAnimationFrame(tick);
          else done((n * 1000) / ms);
        };
        requestAnimationFrame(tick);
      }),
    ms,
  );
}

interface Row {
  /** Devices on the server (every 10th simulated device never reports, so it has no marker). */
  fleet: number;
  devices: number;
  compositing: Compositing;
  clustered: boolean;
  /** Median of LOADS page loads, and the fastest and slowest. */
  drawnMs: number;
  drawnMin: number;
  drawnMax: number;
  steadyBusy: number;
  steadyLongest: number;
  steadyFps: number;
  panBusy: number;
  panLongest: number;
  panFps: number;
  scrollLongest: number;
  scrollFps: number;
  heapMb: number;
  liveHeapMb: number;
  keystrokeSyncMs: number;
  keystrokeListMs: number;
  filterPureMs: number;
}

function pureFilterMs(n: number): number {
  const devices: Device[] = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `Vehicle ${String(i + 1).padStart(5, '0')}`,
    uniqueId: `rastro-${String(i + 1).padStart(4, '0')}`,
    status: i % 3 === 0 ? 'online' : 'offline',
    attributes: { placa: `ABC${i}`, 'device.model': 'GT06' },
    groupId: 0,
    calendarId: 0,
    lastUpdate: null,
    positionId: 0,
    phone: null,
    model: null,
    contact: null,
    category: 'car',
    disabled: false,
    expirationTime: null,
  }));
  // search strings are computed once per device object (first pass), then each keystroke is a scan
  createDeviceFilter({ ...DEFAULT_FILTER_STATE, query: 'x' });
  devices.forEach(createDeviceFilter({ ...DEFAULT_FILTER_STATE, query: 'warm' }));
  const queries = [
    'v',
    've',
    'veh',
    'vehi',
    'vehic',
    'vehicl',
    'vehicle',
    'vehicle 0',
    'vehicle 00',
    'vehicle 001',
  ];
  const t0 = performance.now();
  for (const q of queries) {
    const pred = createDeviceFilter({ ...DEFAULT_FILTER_STATE, query: q });
    let c = 0;
    for (const d of devices) if (pred(d)) c++;
    if (c < 0) console.log(c);
  }
  return (performance.now() - t0) / queries.length;
}

async function measure(devices: number, compositing: Compositing = 'gpu', clustered = true): Promise<Row> {
  console.log(`\n--- ${devices} devices: starting server`);
  const srv = process.env.BENCH_URL
    ? { url: process.env.BENCH_URL, stop: async () => undefined, dir: '' }
    : await startBenchServer({ name: `map-${devices}`, devices });
  // wait (outside the browser) until the simulator reported every device once, or the count stops growing
  const session = await fetch(`${srv.url}/api/session`, {
    method: 'POST',
    body: new URLSearchParams({ email: 'admin', password: 'admin' }),
  });
  if (!session.ok) throw new Error(`login failed ${session.status}`);
  const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0];
  const countPositions = async () =>
    ((await (await fetch(`${srv.url}/api/positions`, { headers: { cookie } })).json()) as unknown[]).length;
  let last = -1;
  let stable = 0;
  for (let i = 0; i < 600 && stable < 10; i++) {
    const n = await countPositions();
    if (n >= devices) break;
    stable = n === last ? stable + 1 : 0;
    last = n;
    await new Promise((r) => setTimeout(r, 1000));
  }
  const expected = await countPositions();
  console.log(`positions available: ${expected}`);
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs(compositing),
  });
  try {
    // login → all markers drawn, LOADS times in fresh browser contexts (nothing cached): this machine's spread
    // from one load to the next is larger than most changes, so the figure is the median with the range
    const loadOnce = async () => {
      const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
      const page = await context.newPage();
      page.on('crash', () => console.error('page crashed'));
      page.on('pageerror', (e) => console.error('page error', e.message));
      // tsx (esbuild keepNames) may wrap inner functions of page.evaluate callbacks in __name(...)
      await page.addInitScript({ content: 'window.__name = (f) => f;' });
      await page.addInitScript((clustered) => {
        localStorage.setItem('mapStyle', 'offline');
        localStorage.setItem('mapPref', JSON.stringify({ clustered }));
        const w = window as unknown as { __lt: number[] };
        w.__lt = [];
        new PerformanceObserver((l) => {
          for (const e of l.getEntries()) w.__lt.push(e.duration);
        }).observe({ type: 'longtask', buffered: true });
      }, clustered);
      await context.addCookies([
        { name: cookie.split('=')[0], value: cookie.split('=').slice(1).join('='), url: srv.url },
      ]);
      const t0 = Date.now();
      await page.goto(`${srv.url}/devices`);
      await markersDrawn(page, expected, 300_000);
      return { page, context, ms: Date.now() - t0 };
    };
    const loads: number[] = [];
    let loaded = await loadOnce();
    for (;;) {
      loads.push(loaded.ms);
      console.log(`all ${expected} markers drawn in ${loaded.ms} ms`);
      if (loads.length >= LOADS) break;
      await loaded.context.close();
      loaded = await loadOnce();
    }
    const { page } = loaded;
    const sorted = [...loads].sort((a, b) => a - b);
    const drawnMs = sorted[Math.floor(sorted.length / 2)];

    // steady live updates
    await page.waitForTimeout(2000);
    await takeLongTasks(page);
    const fpsSteady = await frames(page, STEADY_MS);
    const steady = await takeLongTasks(page);

    // panning
    const panDone = page.evaluate(
      (ms) =>
        new Promise<void>((done) => {
          const map = (window as unknown as MapHook).__rastroMap!.map;
          const end = performance.now() + ms;
          let dir = 1;
          const step = () => {
            map.panBy([dir * 120, 0], { duration: 180 });
            dir = -dir;
            if (performance.now() < end) setTimeout(step, 200);
            else done();
          };
          step();
        }),
      PAN_MS,
    );
    const fpsPan = await frames(page, PAN_MS);
    await panDone;
    const pan = await takeLongTasks(page);

    // scrolling the device list through the whole fleet (virtualised rows), one step per frame
    await takeLongTasks(page);
    const scrollFps = await page.evaluate(
      (ms) =>
        new Promise<number>((done) => {
          const el = document.querySelector<HTMLElement>('[data-testid=device-list]')!;
          const end = performance.now() + ms;
          const step = Math.max(200, (el.scrollHeight - el.clientHeight) / ((ms / 1000) * 30));
          let n = 0;
          const tick = () => {
            n++;
            el.scrollTop = el.scrollTop + step >= el.scrollHeight - el.clientHeight ? 0 : el.scrollTop + step;
            if (performance.now() < end) requestAnimationFrame(tick);
            else done((n * 1000) / ms);
          };
          requestAnimationFrame(tick);
        }),
      SCROLL_MS,
    );
    const scroll = await takeLongTasks(page);

    const heapMb = await page.evaluate(() => {
      const m = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
      return m ? m.usedJSHeapSize / 1048576 : 0;
    });
    // what the page really holds: the heap after a full collection (the figure above counts garbage not yet
    // collected, which depends on when V8 last ran a full GC)
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const liveHeapMb = (await cdp.send('Runtime.getHeapUsage')).usedSize / 1048576;

    // filtering per keystroke in the page: sync input handling, and until the list shows the result
    const input = page.getByTestId('device-search');
    // typing and deleting: each step changes the result set (uniqueIds are rastro-0001 …)
    const keys = ['9', '99', '999', '99', '9', ''];
    let sync = 0;
    let list = 0;
    for (const typed of keys) {
      const r = await page.evaluate(async (value) => {
        const el = document.querySelector<HTMLInputElement>('[data-testid=device-search]')!;
        const listEl = document.querySelector('[data-testid=device-list]')!;
        const before = listEl.getAttribute('data-count');
        const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
        const t0 = performance.now();
        setter.call(el, value);
        el.dispatchEvent(new Event('input', { bubbles: true }));
        const t1 = performance.now();
        // the deferred list render lands in a later task: wait for it (or 1 s if the count did not change)
        await new Promise<void>((done) => {
          const limit = performance.now() + 1000;
          const check = () => {
            if (listEl.getAttribute('data-count') !== before || performance.now() > limit) done();
            else setTimeout(check, 0);
          };
          check();
        });
        return {
          sync: t1 - t0,
          list: performance.now() - t0,
          changed: listEl.getAttribute('data-count') !== before,
        };
      }, typed);
      sync += r.sync;
      list += r.changed ? r.list : r.sync;
    }
    await input.fill('');
    return {
      fleet: devices,
      devices: expected,
      compositing,
      clustered,
      drawnMs,
      drawnMin: sorted[0],
      drawnMax: sorted[sorted.length - 1],
      steadyBusy: steady.total / STEADY_MS,
      steadyLongest: steady.longest,
      steadyFps: fpsSteady,
      panBusy: pan.total / PAN_MS,
      panLongest: pan.longest,
      panFps: fpsPan,
      scrollLongest: scroll.longest,
      scrollFps,
      heapMb,
      liveHeapMb,
      keystrokeSyncMs: sync / keys.length,
      keystrokeListMs: list / keys.length,
      filterPureMs: pureFilterMs(devices),
    };
  } finally {
    await browser.close();
    await srv.stop();
  }
}

// every size clustered (the default) with GPU compositing; the largest also with software compositing (see
// argsFor) and with clustering off
const largest = Math.max(...SIZES);
// BENCH_MAP_RUNS="10000:gpu:off,1000:software:on" picks runs instead
const picked = (process.env.BENCH_MAP_RUNS ?? '')
  .split(',')
  .filter(Boolean)
  .map((r): [number, Compositing, boolean] => {
    const [n, c, k] = r.split(':');
    return [Number(n), c === 'software' ? 'software' : 'gpu', k !== 'off'];
  });
const runs: Array<[number, Compositing, boolean]> = picked.length
  ? picked
  : [
      ...SIZES.map((n): [number, Compositing, boolean] => [n, 'gpu', true]),
      [largest, 'software', true],
      [largest, 'gpu', false],
    ];
const rows: Row[] = [];
for (const [n, compositing, clustered] of runs) {
  try {
    rows.push(await measure(n, compositing, clustered));
    console.log(rows.at(-1));
  } catch (err) {
    console.error(`bench map ${n} (${compositing}) failed:`, err);
  }
}

const f = (n: number, d = 0) => n.toFixed(d);
const lines = [
  '## Live map (bench/map.ts)',
  '',
  'Chromium with software WebGL (SwiftShader, no GPU) on the shared 2-core machine, offline map style, the embedded',
  'server\'s simulator sending about 1,000 positions a second, /devices open (list and map). Compositing "gpu" is',
  'Chromium\'s normal mode (its GPU process, here running SwiftShader, composites the map\'s frames); "software"',
  '(--disable-gpu) makes the main thread read back every WebGL frame before going on, a stall no user pays.',
  '"Long tasks" are main-thread tasks over 50 ms (PerformanceObserver longtask; "0 ms" = none): busy share = their',
  'total time over the window. fps is requestAnimationFrame callbacks a second, bounded here by SwiftShader drawing',
  'in the GPU process. Keystroke: "input" is the synchronous handling of one typed character, "list" the time until',
  'the list shows the new result (rendered deferred), "pure" the filter pass over all devices in Node.',
  `"Login → all markers drawn" is the median of ${LOADS} loads of /devices in fresh browser contexts (signed-in`,
  "cookie, nothing cached) until every device with a position is in the map's source and two frames have passed.",
  'JS heap after the steady, panning and scrolling windows: "used" as the page reads it (garbage included), "live"',
  'after a full collection.',
  '',
  '| devices (with a marker) | compositing | clusters | login → all markers drawn: median (fastest–slowest) | steady: long-task share / longest / fps | panning: long-task share / longest / fps | list scroll: longest / fps | JS heap: used / live after GC | keystroke input / list / pure |',
  '|---:|---|---|---:|---|---|---|---:|---|',
  ...rows.map(
    (r) =>
      `| ${r.fleet} (${r.devices}) | ${r.compositing} | ${r.clustered ? 'on' : 'off'} | ${f(r.drawnMs)} ms (${f(r.drawnMin)}–${f(r.drawnMax)}) | ${f(r.steadyBusy * 100, 1)} % / ${f(r.steadyLongest)} ms / ${f(r.steadyFps)} | ` +
      `${f(r.panBusy * 100, 1)} % / ${f(r.panLongest)} ms / ${f(r.panFps)} | ${f(r.scrollLongest)} ms / ${f(r.scrollFps)} | ${f(r.heapMb)} / ${f(r.liveHeapMb)} MB | ` +
      `${f(r.keystrokeSyncMs, 1)} / ${f(r.keystrokeListMs, 1)} / ${f(r.filterPureMs, 2)} ms |`,
  ),
  '',
  'Targets: no task over 100 ms in steady live updates; filtering under 16 ms per keystroke.',
  '',
];
// hand-written notes below the marker (readings, earlier figures) survive a re-run
const out = join(root, 'bench', 'results', 'map.md');
const MARK = '<!-- notes -->';
const previous = existsSync(out) ? readFileSync(out, 'utf8') : '';
if (previous.includes(MARK)) lines.push(previous.slice(previous.indexOf(MARK)));
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(out, lines.join('\n'));
console.log(lines.join('\n'));
