// CPU time (ms, user + system) used so far by every Chromium process on this machine, read from /proc (Linux):
// bench/first-map-ab.ts reports it per page load beside the wall time. On this shared 2-core machine a page load
// keeps both cores busy, so its wall time follows whatever else runs; the CPU the browser spends is a second view
// of what a change costs, less tied to that drift though still noisy (session 14: about ±20 % from one load to the
// next). NaN where /proc cannot be read.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux

export function browserCpuMs(match = 'chromium'): number {
  let ticks = 0;
  let seen = false;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return Number.NaN;
  }
  for (const pid of pids) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(match)) continue;
      // fields after "(comm) ": state is index 0, utime index 11, stime index 12
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      seen = true;
    } catch {
      // the process ended meanwhile
    }
  }
  return seen ? ticks * TICK_MS : Number.NaN;
}
