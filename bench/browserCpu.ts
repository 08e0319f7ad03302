// CPU time (ms, user + system) used by this benchmark's own Chromium, read from /proc (Linux):
// bench/first-map-ab.ts reports it per page load beside the wall time. On this shared 2-core machine a page load
// keeps both cores busy, so its wall time follows whatever else runs; the CPU the browser spends is a second view
// of what a change costs, less tied to that drift though still noisy (session 14: about ±20 % from one load to the
// next). Only processes descended from this Node process count (other sessions' browsers and tests ran Chromium
// too and made the sum swing by seconds, even negative, session 18), and a process's time counts from the
// snapshot on (one that ended meanwhile counts nothing rather than taking its whole past off the sum).
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

interface Stat {
  ppid: number;
  ticks: number;
  chromium: boolean;
}

function readStats(): Map<number, Stat> | null {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return null;
  }
  const out = new Map<number, Stat>();
  for (const pid of pids) {
    try {
      // fields after "(comm) ": state is index 0, ppid index 1, utime index 11, stime index 12
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      const chromium = readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('chromium');
      out.set(Number(pid), {
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
        chromium,
      });
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** CPU ticks of this process's Chromium descendants, by pid (null where /proc cannot be read). */
export function browserCpuSnapshot(): Map<number, number> | null {
  const stats = readStats();
  if (!stats) return null;
  const mine = new Map<number, number>();
  for (const [pid, s] of stats) {
    if (!s.chromium) continue;
    let up = s.ppid;
    for (let depth = 0; depth < 64 && up > 1; depth++) {
      if (up === process.pid) {
        mine.set(pid, s.ticks);
        break;
      }
      up = stats.get(up)?.ppid ?? 0;
    }
  }
  return mine;
}

/** CPU ms this benchmark's Chromium used since `before` (NaN where /proc cannot be read). */
export function browserCpuSince(before: Map<number, number> | null): number {
  const now = browserCpuSnapshot();
  if (!before || !now) return Number.NaN;
  let ticks = 0;
  for (const [pid, t] of now) ticks += t - (before.get(pid) ?? 0);
  return ticks * TICK_MS;
}
