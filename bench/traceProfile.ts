// A Chromium trace of one benchmark step with V8's CPU profiler on every thread (the page's main thread and
// MapLibre's workers), summarised as text: each thread's busy time (its tasks) and where its JavaScript spent
// the time (self time by function, and by script). bench/history.ts uses it with BENCH_TRACE=<file> to show what
// drawing a long route costs and on which thread. The trace file itself opens in Chromium's DevTools
// (Performance, load profile).
import type { Browser, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';

const CATEGORIES = [
  '__metadata',
  'toplevel',
  'v8.execute',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-v8.cpu_profiler',
];

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  id?: string;
  args?: {
    name?: string;
    data?: {
      cpuProfile?: {
        nodes?: Array<{
          id: number;
          callFrame: { functionName: string; url: string; lineNumber: number };
        }>;
        samples?: number[];
      };
      timeDeltas?: number[];
    };
  };
}

/** Runs `step` while tracing `page`'s browser into `file`; answers the step's result and the summary. */
export async function traceProfile<T>(
  browser: Browser,
  page: Page,
  file: string,
  step: () => Promise<T>,
  top = 30,
): Promise<{ result: T; summary: string }> {
  await browser.startTracing(page, { path: file, categories: CATEGORIES });
  let result: T;
  try {
    result = await step();
  } finally {
    await browser.stopTracing();
  }
  return { result, summary: summariseTrace(file, top) };
}

const ms = (us: number) => `${(us / 1000).toFixed(0)} ms`;

function summariseTrace(file: string, top: number): string {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(raw) ? raw : (raw.traceEvents ?? []);
  const threadName = new Map<string, string>();
  const busy = new Map<string, number>();
  // profiles by id: the thread they ran on, their nodes, self time per node
  const profiles = new Map<
    string,
    { thread: string; frames: Map<number, string>; self: Map<number, number> }
  >();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.ph === 'M' && e.name === 'thread_name') threadName.set(thread, e.args?.name ?? thread);
    if (e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask'))
      busy.set(thread, (busy.get(thread) ?? 0) + (e.dur ?? 0));
    if (e.name === 'Profile' || e.name === 'ProfileChunk') {
      const key = `${e.pid}:${e.id}`;
      let p = profiles.get(key);
      if (!p) profiles.set(key, (p = { thread, frames: new Map(), self: new Map() }));
      const cpu = e.args?.data?.cpuProfile;
      for (const n of cpu?.nodes ?? []) {
        const f = n.callFrame;
        const script = f.url ? f.url.slice(f.url.lastIndexOf('/') + 1) : '';
        p.frames.set(
          n.id,
          `${f.functionName || '(anonymous)'} ${script}${script ? `:${f.lineNumber + 1}` : ''}`,
        );
      }
      const deltas = e.args?.data?.timeDeltas ?? [];
      (cpu?.samples ?? []).forEach((id, i) => p.self.set(id, (p.self.get(id) ?? 0) + (deltas[i] ?? 0)));
    }
  }
  const lines: string[] = ['Threads by busy time (tasks):'];
  for (const [thread, us] of [...busy].sort((a, b) => b[1] - a[1]).slice(0, 8))
    lines.push(`  ${threadName.get(thread) ?? thread}: ${ms(us)}`);
  // self time by function and by script, per thread name
  const byThread = new Map<string, { fns: Map<string, number>; scripts: Map<string, number> }>();
  for (const p of profiles.values()) {
    const name = threadName.get(p.thread) ?? p.thread;
    let t = byThread.get(name);
    if (!t) byThread.set(name, (t = { fns: new Map(), scripts: new Map() }));
    for (const [id, us] of p.self) {
      const frame = p.frames.get(id) ?? '?';
      t.fns.set(frame, (t.fns.get(frame) ?? 0) + us);
      const script = frame.includes(' ') ? frame.slice(frame.indexOf(' ') + 1).replace(/:\d+$/, '') : '';
      t.scripts.set(script || '(native)', (t.scripts.get(script || '(native)') ?? 0) + us);
    }
  }
  for (const [name, t] of byThread) {
    const total = [...t.fns.values()].reduce((a, b) => a + b, 0);
    lines.push('', `${name}: ${ms(total)} sampled`, '  by script:');
    for (const [s, us] of [...t.scripts].sort((a, b) => b[1] - a[1]).slice(0, 8))
      lines.push(`    ${ms(us)}  ${s}`);
    lines.push('  by function (self):');
    for (const [f, us] of [...t.fns].sort((a, b) => b[1] - a[1]).slice(0, top))
      lines.push(`    ${ms(us)}  ${f}`);
  }
  return lines.join('\n');
}
