// Where a benchmark step's browser CPU went, by Chromium process type and thread (Linux /proc): bench/history.ts
// prints it per load beside bench/browserCpu.ts's total. In "gpu" compositing the GPU process's SwiftShader
// threads draw the WebGL frames (a GPU's work on a user's machine), the renderer's main thread runs the page,
// its DedicatedWorker is MapLibre's tiling and its ThreadPoolForegroundWorker V8's background work (garbage
// collection, compiling). Trace durations are wall time, which a loaded machine stretches; these are CPU time.
import { browserCpuSnapshot } from './browserCpu.ts';
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** CPU ticks of each thread of this process's Chromium, keyed "pid:tid:process type/thread name". */
export function browserThreadsSnapshot(): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of browserCpuSnapshot()?.keys() ?? []) {
    let type: string;
    let tids: string[];
    try {
      type = /--type=([a-z-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? 'browser';
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // the process ended meanwhile
    }
    for (const tid of tids) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+>?$/, '#');
        const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
        out.set(`${pid}:${tid}:${type}/${name}`, Number(fields[11]) + Number(fields[12]));
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return out;
}

/** CPU ms by "process type/thread" since `before` (threads of one name summed; a thread started since counts whole), largest first, ≥ 20 ms. */
export function browserThreadsSince(before: Map<string, number>): Array<[string, number]> {
  const sum = new Map<string, number>();
  for (const [key, ticks] of browserThreadsSnapshot()) {
    const name = key.split(':').slice(2).join(':');
    sum.set(name, (sum.get(name) ?? 0) + (ticks - (before.get(key) ?? 0)) * TICK_MS);
  }
  return [...sum].filter(([, ms]) => ms >= 20).sort((a, b) => b[1] - a[1]);
}
