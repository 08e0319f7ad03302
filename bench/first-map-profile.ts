// Where one signed-in `/devices` load spends the page's main thread before the map's first frame (issue #31,
// session 24). Loads the first map of a web build as bench/first-map-ab.ts does (new context, cookie set, offline
// style), traced with V8's sampling profiler, and prints per load:
// - a timeline of the page clock (ms after navigation start): each script's response end, the main thread's script
//   evaluations (which chunk), the map's first frame (the first WebGL clear of the colour buffer) and the markers
//   drawn (bench/markersDrawn.ts);
// - the main thread's time from navigation start to that first frame by cause: the chunk whose code the samples
//   were in (self time), the program (native work, compiling, styles and layout), GC and idle.
//
//   FIRST_MAP_DEVICES=100 node --import tsx bench/first-map-profile.ts 3 /path/to/web/dist [trace.json]
//
// FIRST_MAP_MODE=login: the sign-in as bench/first-map-ab.ts's login mode does it (`/login`, the credentials typed,
// Enter); the trace starts at the first key and the clock's zero is the Enter key's event ('enter-pressed').
import { chromium } from '@playwright/test';
import { readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromiumArgs } from './chromium.ts';
import { startBenchServer } from './server.ts';
import { markersDrawn } from './markersDrawn.ts';

const loads = Math.max(1, Number(process.argv[2]) || 3);
const dist = process.argv[3];
// `--summarise <trace file>`: prints the summary of a trace kept before
const traceFile = resolve(process.argv[4] ?? '.tmp/first-map-profile.json');
if (!dist) {
  console.error('usage: bench/first-map-profile.ts <loads> <web dist dir> [trace file]');
  process.exit(2);
}
const devices = Number(process.env.FIRST_MAP_DEVICES ?? 100);
const mode = process.env.FIRST_MAP_MODE === 'login' ? 'login' : 'signed-in';
const TYPING_KEY_MS = 90;

// the first WebGL clear of a colour buffer: the map's first frame
const MARKS_SCRIPT = `(() => {
  window.__name = (f) => f;
  localStorage.setItem('mapStyle', 'offline');
  let first = true;
  for (const C of [window.WebGLRenderingContext, window.WebGL2RenderingContext]) {
    if (!C) continue;
    const clear = C.prototype.clear;
    C.prototype.clear = function (bits) {
      if (first && bits & 0x4000) { first = false; performance.mark('first-map-frame'); }
      return clear.call(this, bits);
    };
  }
  const watch = () => {
    if (window.__rastroMap?.firstFrameDrawn()) performance.mark('first-frame-drawn');
    else requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !performance.getEntriesByName('enter-pressed').length)
      performance.mark('enter-pressed', { startTime: e.timeStamp });
  }, true);
})();`;

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  id?: string;
  args?: {
    name?: string;
    data?: {
      url?: string;
      documentLoaderURL?: string;
      frame?: string;
      startTime?: number;
      requestId?: string;
      cpuProfile?: {
        nodes?: Array<{ id: number; parent?: number; callFrame: { functionName: string; url: string } }>;
        samples?: number[];
      };
      timeDeltas?: number[];
    };
  };
}

const short = (url: string | undefined) =>
  url ? url.slice(url.lastIndexOf('/') + 1).replace(/-[\w-]{8}\.js$/, '.js') || url : '';

function summarise(file: string): string {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : (raw.traceEvents ?? []);
  const nav = events.find(
    (e) => e.name === 'navigationStart' && /\/(devices|login)/.test(e.args?.data?.documentLoaderURL ?? ''),
  );
  const frameMark = events.find((e) => e.name === 'first-map-frame');
  // the login mode's zero: the Enter key's event (the trace starts after the sign-in page's navigation)
  const enter = events.find((e) => e.name === 'enter-pressed');
  const start = enter ?? nav;
  if (!start || !frameMark) return `no navigationStart or first frame in ${file}`;
  const main = `${start.pid}:${start.tid}`;
  const t0 = start.ts;
  const end = frameMark.ts;
  const at = (ts: number) => Math.round((ts - t0) / 1000);
  const lines: string[] = [];
  const timeline: Array<[number, string]> = [];
  const urls = new Map<string, string>();
  for (const e of events) {
    if (e.name === 'ResourceSendRequest' && e.args?.data?.requestId && e.args.data.url)
      urls.set(e.args.data.requestId, e.args.data.url);
  }
  for (const e of events) {
    if (!enter && e.ts < t0) continue;
    const thread = `${e.pid}:${e.tid}`;
    if (e.name === 'ResourceFinish' && e.args?.data?.requestId) {
      const url = urls.get(e.args.data.requestId) ?? '';
      if (/\.(js|css|json|png|pbf)$|\/api\//.test(url)) timeline.push([at(e.ts), `  loaded ${short(url)}`]);
    }
    if (thread === main && e.ph === 'X' && (e.dur ?? 0) >= 15_000) {
      if (e.name === 'v8.evaluateModule' || e.name === 'EvaluateScript')
        timeline.push([at(e.ts), `evaluate ${short(e.args?.data?.url)} ${Math.round(e.dur! / 1000)} ms`]);
      if (e.name === 'v8.compileModule' || e.name === 'v8.compile')
        timeline.push([at(e.ts), `compile ${short(e.args?.data?.url)} ${Math.round(e.dur! / 1000)} ms`]);
      if (e.name === 'FunctionCall' || e.name === 'TimerFire' || e.name === 'FireAnimationFrame')
        timeline.push([at(e.ts), `${e.name} ${short(e.args?.data?.url)} ${Math.round(e.dur! / 1000)} ms`]);
      if (e.name === 'Layout' || e.name === 'UpdateLayoutTree' || e.name === 'Paint')
        timeline.push([at(e.ts), `${e.name} ${Math.round(e.dur! / 1000)} ms`]);
    }
  }
  timeline.push([at(end), "*** the map's first frame (first WebGL clear)"]);
  for (const name of ['first-frame-drawn', 'markers-drawn']) {
    const mark = events.find((e) => e.name === name);
    if (mark) timeline.push([at(mark.ts), `*** ${name}`]);
  }
  lines.push(...timeline.sort((a, b) => a[0] - b[0]).map(([t, s]) => `${String(t).padStart(6)}  ${s}`));

  // main-thread samples by the chunk of the sampled function (self time): before the first frame, then until the
  // markers were found drawn
  const drawnMark = events.find((e) => e.name === 'markers-drawn');
  const windows: Array<{
    label: string;
    from: number;
    to: number;
    byCause: Map<string, number>;
    total: number;
  }> = [
    {
      label: `navigation start → first frame (${at(end)} ms)`,
      from: t0,
      to: end,
      byCause: new Map(),
      total: 0,
    },
  ];
  if (drawnMark)
    windows.push({
      label: `first frame → markers drawn (${at(drawnMark.ts)} ms)`,
      from: end,
      to: drawnMark.ts,
      byCause: new Map(),
      total: 0,
    });
  const profiles = new Map<
    string,
    { thread: string; t: number; url: Map<number, string>; name: Map<number, string> }
  >();
  for (const e of events) {
    if (e.name !== 'Profile' && e.name !== 'ProfileChunk') continue;
    const key = `${e.pid}:${e.id}`;
    let p = profiles.get(key);
    if (!p) {
      p = {
        thread: `${e.pid}:${e.tid}`,
        t: e.args?.data?.startTime ?? e.ts,
        url: new Map(),
        name: new Map(),
      };
      profiles.set(key, p);
    }
    const cpu = e.args?.data?.cpuProfile;
    for (const n of cpu?.nodes ?? []) {
      p.url.set(n.id, short(n.callFrame.url));
      p.name.set(n.id, n.callFrame.functionName);
    }
    const deltas = e.args?.data?.timeDeltas ?? [];
    (cpu?.samples ?? []).forEach((id, i) => {
      p.t += deltas[i] ?? 0;
      const w = windows.find((x) => p.thread === main && p.t >= x.from && p.t < x.to);
      if (!w) return;
      const d = deltas[i + 1] ?? 0;
      const name = p.name.get(id) ?? '';
      const chunk = p.url.get(id);
      // PROFILE_FUNCTIONS=1: by function (and chunk) instead of by chunk
      const cause =
        chunk && process.env.PROFILE_FUNCTIONS
          ? `${name || '(anonymous)'} ${chunk}`
          : chunk || (name.startsWith('(') ? name : `native ${name}`);
      w.byCause.set(cause, (w.byCause.get(cause) ?? 0) + d);
      w.total += d;
    });
  }
  for (const w of windows) {
    lines.push('', `main thread, ${w.label}, sampled ${Math.round(w.total / 1000)} ms:`);
    for (const [cause, us] of [...w.byCause].sort((a, b) => b[1] - a[1]).slice(0, 20))
      lines.push(`  ${String(Math.round(us / 1000)).padStart(6)} ms  ${cause}`);
  }
  return lines.join('\n');
}

if (process.argv[2] === '--summarise') {
  console.log(summarise(resolve(process.argv[3] ?? traceFile)));
  process.exit(0);
}
const server = await startBenchServer({
  name: 'first-map-profile',
  devices,
  env: { WEB_ROOT: resolve(dist) },
});
try {
  const url = server.url;
  const login = await fetch(`${url}/api/session`, {
    method: 'POST',
    body: new URLSearchParams({ email: 'admin', password: 'admin' }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  let expected = 0;
  for (let i = 0; i < 300 && expected < devices * 0.9; i++) {
    expected = ((await (await fetch(`${url}/api/positions`, { headers: { cookie } })).json()) as unknown[])
      .length;
    if (expected < devices * 0.9) await new Promise((r) => setTimeout(r, 1000));
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs('gpu'),
  });
  for (let i = 0; i < loads; i++) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
    const page = await context.newPage();
    await page.addInitScript({ content: MARKS_SCRIPT });
    if (mode === 'login') {
      await page.goto(`${url}/login`);
      await page.getByTestId('login-email').waitFor({ state: 'visible' });
    } else {
      const [k, ...v] = cookie.split('=');
      await context.addCookies([{ name: k, value: v.join('='), url }]);
    }
    await browser.startTracing(page, {
      path: traceFile,
      categories: [
        '__metadata',
        'toplevel',
        'v8',
        'v8.execute',
        'blink.user_timing',
        'loading',
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'disabled-by-default-v8.cpu_profiler',
      ],
    });
    let t = Date.now();
    if (mode === 'login') {
      await page.getByTestId('login-email').click();
      await page.keyboard.type('admin', { delay: TYPING_KEY_MS });
      await page.keyboard.press('Tab', { delay: TYPING_KEY_MS });
      await page.keyboard.type('admin', { delay: TYPING_KEY_MS });
      await new Promise((r) => setTimeout(r, TYPING_KEY_MS));
      t = Date.now();
      await page.keyboard.press('Enter');
    } else await page.goto(`${url}/devices`);
    await markersDrawn(page, expected, 120_000);
    const ms = Date.now() - t;
    await browser.stopTracing();
    console.log(`\n=== load ${i + 1}: markers drawn ${ms} ms after ${mode === 'login' ? 'Enter' : 'goto'}`);
    console.log(summarise(traceFile));
    await context.close();
  }
  await browser.close();
  if (!process.argv[4]) rmSync(traceFile, { force: true });
} finally {
  await server.stop();
}
