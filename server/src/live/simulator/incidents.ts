// Demo incidents for the monitoring center (issue #32, docs/demo-fleet.md): so that the desk is alive after
// `npm start`, the demo fleet presses an SOS about every 10 minutes and has a parked vehicle towed away (carried with
// the ignition off) about every 20 minutes, on vehicles chosen by the fleet's seed. The first of each comes half a
// period after the start. Tests force one through `force`.
import { createRng, hashSeed, type Rng } from './rng.ts';
import type { Vehicle } from './vehicle.ts';

export const DEMO_SOS_EVERY_MS = 10 * 60_000;
export const DEMO_TOW_EVERY_MS = 20 * 60_000;

export type DemoIncident = 'sos' | 'towing';

export class DemoIncidents {
  private readonly rng: Rng;
  private nextSos: number;
  private nextTow: number;

  constructor(
    seed: number,
    start: number,
    private readonly sosEveryMs = DEMO_SOS_EVERY_MS,
    private readonly towEveryMs = DEMO_TOW_EVERY_MS,
  ) {
    this.rng = createRng(hashSeed('incidents', seed));
    this.nextSos = start + sosEveryMs / 2;
    this.nextTow = start + towEveryMs / 2;
  }

  /** Starts the incidents that are due at `now` among the reporting vehicles. */
  tick(now: number, vehicles: readonly Vehicle[]): Array<{ kind: DemoIncident; uniqueId: string }> {
    const out: Array<{ kind: DemoIncident; uniqueId: string }> = [];
    if (now >= this.nextSos) {
      this.nextSos = now + this.sosEveryMs;
      const v = this.force('sos', vehicles);
      if (v) out.push({ kind: 'sos', uniqueId: v.entry.uniqueId });
    }
    if (now >= this.nextTow) {
      this.nextTow = now + this.towEveryMs;
      const v = this.force('towing', vehicles);
      if (v) out.push({ kind: 'towing', uniqueId: v.entry.uniqueId });
    }
    return out;
  }

  /** One incident now on a vehicle the seed picks (a parked one for a towing); null when none can have it. */
  force(kind: DemoIncident, vehicles: readonly Vehicle[]): Vehicle | null {
    const candidates = kind === 'towing' ? vehicles.filter((v) => v.towable) : [...vehicles];
    if (!candidates.length) return null;
    const v = this.rng.pick(candidates);
    if (kind === 'sos') v.raiseAlarm('sos');
    else v.startTowing();
    return v;
  }
}
