// A road-like street grid over São Paulo, generated (no network needed): a lattice tilted like the city's
// central grid, with local streets every 200 m, arterials every 10th line and expressways every 40th.
// Vehicles drive from intersection to intersection, so every trace follows straight streets and turns at corners.
import type { LatLon } from '@rastro/domain';
import { EARTH_RADIUS_M } from '@rastro/domain';
import type { Rng } from './rng.ts';

export const SAO_PAULO: LatLon = { latitude: -23.5505, longitude: -46.6333 };
/** Street spacing, metres. */
export const BLOCK = 200;
/** Nodes from the centre to each edge (±12 km). */
export const HALF = 60;
const TILT = (-18 * Math.PI) / 180;

export type StreetKind = 'local' | 'arterial' | 'expressway';

export interface Node {
  i: number;
  j: number;
}

export interface Leg {
  from: LatLon;
  to: LatLon;
  kind: StreetKind;
  /** metres */
  length: number;
  /** degrees from north */
  course: number;
}

export function kindOf(line: number): StreetKind {
  if (line % 40 === 0) return 'expressway';
  if (line % 10 === 0) return 'arterial';
  return 'local';
}

/** Speed limit of a street kind, km/h (São Paulo: 30–50 local, 50–60 arterial, 70–90 marginais). */
export const LIMIT_KMH: Record<StreetKind, number> = { local: 40, arterial: 60, expressway: 90 };

export function toLatLon(n: Node): LatLon {
  const x0 = n.i * BLOCK;
  const y0 = n.j * BLOCK;
  const x = x0 * Math.cos(TILT) - y0 * Math.sin(TILT);
  const y = x0 * Math.sin(TILT) + y0 * Math.cos(TILT);
  const lat = SAO_PAULO.latitude + ((y / EARTH_RADIUS_M) * 180) / Math.PI;
  const lon =
    SAO_PAULO.longitude +
    ((x / (EARTH_RADIUS_M * Math.cos((SAO_PAULO.latitude * Math.PI) / 180))) * 180) / Math.PI;
  return { latitude: lat, longitude: lon };
}

const clamp = (v: number) => Math.max(-HALF, Math.min(HALF, v));
const nearestArterial = (v: number) => clamp(Math.round(v / 10) * 10);

/** A random intersection within `radius` blocks of `around`. */
export function randomNode(rng: Rng, around: Node, radius = 25): Node {
  return { i: clamp(around.i + rng.int(-radius, radius)), j: clamp(around.j + rng.int(-radius, radius)) };
}

/**
 * Route from a to b: along the local street to the nearest arterial, along the arterial, then local streets to
 * the destination. Returned as unit legs (one block each) so speeds and turns are per block.
 */
export function route(a: Node, b: Node): Leg[] {
  const legs: Leg[] = [];
  const via = nearestArterial(a.i);
  const walk = (from: Node, to: Node) => {
    let cur = from;
    while (cur.i !== to.i || cur.j !== to.j) {
      const next =
        cur.i !== to.i
          ? { i: cur.i + Math.sign(to.i - cur.i), j: cur.j }
          : { i: cur.i, j: cur.j + Math.sign(to.j - cur.j) };
      // moving along i (x) runs on street line j; moving along j runs on line i
      const kind = next.i !== cur.i ? kindOf(cur.j) : kindOf(cur.i);
      const p = toLatLon(cur);
      const q = toLatLon(next);
      const dx = next.i - cur.i;
      const dy = next.j - cur.j;
      const angle = Math.atan2(
        dx * Math.cos(TILT) - dy * Math.sin(TILT),
        dx * Math.sin(TILT) + dy * Math.cos(TILT),
      );
      legs.push({ from: p, to: q, kind, length: BLOCK, course: ((angle * 180) / Math.PI + 360) % 360 });
      cur = next;
    }
  };
  const p1 = { i: via, j: a.j };
  const p2 = { i: via, j: b.j };
  walk(a, p1);
  walk(p1, p2);
  walk(p2, b);
  return legs;
}

/** The intersection nearest to a point (to resume a vehicle where it last reported). */
export function nearestNode(p: LatLon): Node {
  const y = (((p.latitude - SAO_PAULO.latitude) * Math.PI) / 180) * EARTH_RADIUS_M;
  const x =
    (((p.longitude - SAO_PAULO.longitude) * Math.PI) / 180) *
    EARTH_RADIUS_M *
    Math.cos((SAO_PAULO.latitude * Math.PI) / 180);
  const x0 = x * Math.cos(TILT) + y * Math.sin(TILT);
  const y0 = -x * Math.sin(TILT) + y * Math.cos(TILT);
  return { i: clamp(Math.round(x0 / BLOCK)), j: clamp(Math.round(y0 / BLOCK)) };
}
