// Compares "login → all markers drawn" of two or more web builds on ONE embedded server, loading them in turn
// (A B B A A B …) so that the machine's drift falls on each build alike. This shared 2-core machine's spread from
// one page load to the next (often ±0.5 s) is larger than most changes, and runs an hour apart are not comparable;
// alternating on one server is how session 11 told changes apart (bench/results/map.md notes). Each load also
// reports the CPU its own Chromium's processes used meanwhile (bench/browserCpu.ts): a change that costs the browser
// more work shows there even when the machine's drift hides it in the wall time, and the page's JavaScript heap
// still live after a full collection once the markers are drawn (CDP HeapProfiler.collectGarbage, then
// Runtime.getHeapUsage).
//
//   npm run build -w web && cp -r web/dist /tmp/a     # the baseline
//   … change, build … && cp -r web/dist /tmp/b
//   node --import tsx bench/first-map-ab.ts 8 A=/tmp/a B=/tmp/b   # 8 rounds, 10,000 devices (FIRST_MAP_DEVICES)
//
// Two modes (FIRST_MAP_MODE):
// - `signed-in` (the default): a returning visitor's cold load, `/devices` opened with the session's cookie set;
//   timed from `goto`.
// - `login`: what issue #31 measures, "from pressing Enter on the sign-in form": a fresh context opens `/login`,
//   waits until the form is usable, clicks the e-mail field and types the demo credentials as a person would
//   (keyboard, one key every TYPING_KEY_MS, about 1 s in all: the typing-start preload runs meanwhile, main.tsx),
//   then presses Enter; timed from Enter (wall clock, and on the page's clock from the Enter key's own event), to
//   the markers drawn on /home. The browser's CPU is counted from Enter too.
//
// Every build's assets are content-hashed, so they share one web root; only index.html is swapped before each load
// (its precompressed copies are left out, so the swapped file is what the browser gets).
import { chromium } from '@playwright/test';
import { copyFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromiumArgs } from './chromium.ts';
import { startBenchServer } from './server.ts';
import { combinedWebRoot, parseBuilds } from './webBuilds.ts';
import { markersDrawn, markersFed } from './markersDrawn.ts';
import { browserCpuSince, browserCpuSnapshot } from './browserCpu.ts';
import { GL_WAVES_SCRIPT, readGlWaves } from './glWaves.ts';

const rounds = Math.max(1, Number(process.argv[2]) || 6);
const builds = parseBuilds(process.argv.slice(3));
if (builds.length < 2) {
  console.error('usage: bench/first-map-ab.ts <rounds> NAME=<web dist dir> NAME=<web dist dir> …');
  process.exit(2);
}
const devices = Number(process.env.FIRST_MAP_DEVICES ?? 10_000);
const mode = process.env.FIRST_MAP_MODE === 'login' ? 'login' : 'signed-in';
/** The pause between two keys a person types (10 keys and a tab: about 1 s in all). */
const TYPING_KEY_MS = 90;
// marks the Enter key's press on the page's clock (the login mode's start)
const ENTER_MARK_SCRIPT = `document.addEventListener('keydown', (e) => {
  // at the event's own time: its dispatch may wait for a busy main thread (the typing-start preload's chunks)
  if (e.key === 'Enter' && !performance.getEntriesByName('enter-pressed').length) {
    performance.mark('enter-pressed', { startTime: e.timeStamp });
    // bench/glWaves.ts counts from Enter (what the sign-in page linked while the person typed is not on the path)
    const g = window.__glWaves;
    if (g) { g.links = 0; g.linkFrames.clear(); g.clearFrames.clear(); }
  }
}, true);`;

const webRoot = combinedWebRoot('first-map-ab', builds);

const server = await startBenchServer({ name: 'first-map-ab', devices, env: { WEB_ROOT: webRoot } });
const url = server.url;
try {
  const login = await fetch(`${url}/api/session`, {
    method: 'POST',
    body: new URLSearchParams({ email: 'admin', password: 'admin' }),
  });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
  const positions = async () =>
    ((await (await fetch(`${url}/api/positions`, { headers: { cookie } })).json()) as unknown[]).length;
  let expected = 0;
  for (let i = 0; i < 300; i++) {
    expected = await positions();
    if (expected >= devices * 0.9) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  console.log(
    `${expected} positions; ${rounds} rounds of ${builds.map((b) => b[0]).join(', ')}; mode ${mode}`,
  );

  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs('gpu'),
  });
  const times = new Map<string, number[]>(builds.map(([name]) => [name, []]));
  const fedTimes = new Map<string, number[]>(builds.map(([name]) => [name, []]));
  const pageTimes = new Map<string, number[]>(builds.map(([name]) => [name, []]));
  const cpu = new Map<string, number[]>(builds.map(([name]) => [name, []]));
  const heap = new Map<string, number[]>(builds.map(([name]) => [name, []]));
  const waves = new Map<string, string[]>(builds.map(([name]) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 ? [...builds].reverse() : builds;
    for (const [name] of order) {
      copyFileSync(join(webRoot, `index-${name}.html`), join(webRoot, 'index.html'));
      const context = await browser.newContext({ viewport: { width: 1366, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript({
        content: "window.__name = (f) => f; localStorage.setItem('mapStyle', 'offline');",
      });
      await page.addInitScript({ content: GL_WAVES_SCRIPT });
      let t0: number;
      let cpu0: ReturnType<typeof browserCpuSnapshot>;
      if (mode === 'login') {
        await page.addInitScript({ content: ENTER_MARK_SCRIPT });
        await page.goto(`${url}/login`);
        const email = page.getByTestId('login-email');
        await email.waitFor({ state: 'visible' });
        await email.click();
        await page.keyboard.type('admin', { delay: TYPING_KEY_MS });
        await page.keyboard.press('Tab', { delay: TYPING_KEY_MS });
        await page.keyboard.type('admin', { delay: TYPING_KEY_MS });
        await new Promise((r) => setTimeout(r, TYPING_KEY_MS));
        t0 = Date.now();
        cpu0 = browserCpuSnapshot();
        await page.keyboard.press('Enter');
      } else {
        const [k, ...v] = cookie.split('=');
        await context.addCookies([{ name: k, value: v.join('='), url }]);
        t0 = Date.now();
        cpu0 = browserCpuSnapshot();
        await page.goto(`${url}/devices`);
      }
      await markersFed(page, expected, 120_000);
      const fedMs = Date.now() - t0;
      await markersDrawn(page, expected, 120_000);
      const ms = Date.now() - t0;
      fedTimes.get(name)!.push(fedMs);
      // the same end on the page's clock (from its navigation start): without the browser's own start of the
      // navigation (a renderer process, 0.2–1.8 s under load), which no page change can shorten
      // (login mode: from the Enter key's event)
      const pageMs = Math.round(
        await page.evaluate(
          () =>
            (performance.getEntriesByName('markers-drawn')[0]?.startTime ?? NaN) -
            (performance.getEntriesByName('enter-pressed')[0]?.startTime ?? 0),
        ),
      );
      pageTimes.get(name)!.push(pageMs);
      const cpuMs = browserCpuSince(cpu0);
      const gl = await readGlWaves(page);
      const glText = `${gl.waves} link waves (${gl.links} programs), ${gl.frames} frames`;
      waves.get(name)!.push(`${gl.waves}/${gl.frames}`);
      times.get(name)!.push(ms);
      cpu.get(name)!.push(cpuMs);
      // the page's JavaScript heap still live after a full collection (issue #31: ≤ 25 MB at 100 devices)
      const cdp = await context.newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      const { usedSize } = await cdp.send('Runtime.getHeapUsage');
      const heapMb = Math.round(usedSize / 1e5) / 10;
      heap.get(name)!.push(heapMb);
      console.log(
        `${name} ${ms} ms (fed ${fedMs} ms, drawn at ${pageMs} ms of the page's clock), browser CPU ${cpuMs} ms, heap after GC ${heapMb} MB, ${glText}`,
      );
      await context.close();
    }
  }
  await browser.close();
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  for (const [name, list] of times) {
    console.log(
      `${name}: median ${median(list)} ms (${Math.min(...list)}–${Math.max(...list)}), ${list.join(' ')}`,
    );
    const onPage = pageTimes.get(name)!;
    console.log(
      `${name}: drawn on the page's clock median ${median(onPage)} ms (${Math.min(...onPage)}–${Math.max(...onPage)})`,
    );
    const fed = fedTimes.get(name)!;
    console.log(`${name}: source fed median ${median(fed)} ms (${Math.min(...fed)}–${Math.max(...fed)})`);
    const used = cpu.get(name)!;
    console.log(`${name}: browser CPU median ${median(used)} ms (${Math.min(...used)}–${Math.max(...used)})`);
    console.log(
      `${name}: program-link waves / frames drawn before the markers: ${waves.get(name)!.join(' ')}`,
    );
    const live = heap.get(name)!;
    console.log(
      `${name}: JS heap after GC median ${median(live)} MB (${Math.min(...live)}–${Math.max(...live)})`,
    );
  }
} finally {
  await server.stop();
  rmSync(dirname(webRoot), { recursive: true, force: true });
}
