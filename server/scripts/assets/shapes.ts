// The 24 map-icon glyphs (SPEC §3 "Map icon types"), drawn on a 48-unit grid, seen from above and pointing north
// so MapLibre can rotate them by course. Shapes are painted in order; `cut` shapes erase.
import { MAP_ICON_TYPES } from '@rastro/domain';

export type Shape = { cut?: boolean } & (
  | { k: 'rect'; x: number; y: number; w: number; h: number }
  | { k: 'circle'; cx: number; cy: number; r: number }
  | { k: 'ellipse'; cx: number; cy: number; rx: number; ry: number }
  | { k: 'poly'; p: Array<[number, number]> }
);

// The 24 map icon types of SPEC §3 live once, in the domain package.
export const ICON_TYPES = MAP_ICON_TYPES;

const rect = (x: number, y: number, w: number, h: number, cut = false): Shape => ({
  k: 'rect',
  x,
  y,
  w,
  h,
  cut,
});
const circle = (cx: number, cy: number, r: number, cut = false): Shape => ({ k: 'circle', cx, cy, r, cut });
const ellipse = (cx: number, cy: number, rx: number, ry: number, cut = false): Shape => ({
  k: 'ellipse',
  cx,
  cy,
  rx,
  ry,
  cut,
});
const poly = (p: Array<[number, number]>, cut = false): Shape => ({ k: 'poly', p, cut });

/** A vehicle body seen from above: body, windscreen cut, optional rear cargo split. */
function vehicle(w: number, h: number, opts: { cab?: number; nose?: boolean } = {}): Shape[] {
  const x = 24 - w / 2;
  const y = 24 - h / 2;
  const s: Shape[] = [rect(x, y + 3, w, h - 3)];
  if (opts.nose) s.push(ellipse(24, y + 4, w / 2, 4));
  else s.push(rect(x + 2, y, w - 4, 4));
  s.push(rect(x + 3, y + 6, w - 6, 4, true)); // windscreen
  if (opts.cab) s.push(rect(x, y + opts.cab, w, 2, true)); // gap between cab and cargo
  return s;
}

export const SHAPES: Record<string, Shape[]> = {
  default: [
    circle(24, 26, 13),
    poly([
      [24, 4],
      [32, 16],
      [16, 16],
    ]),
    circle(24, 26, 5, true),
  ],
  arrow: [
    poly([
      [24, 4],
      [40, 42],
      [24, 33],
      [8, 42],
    ]),
  ],
  person: [circle(24, 12, 6), ellipse(24, 28, 9, 11), rect(12, 22, 4, 14), rect(32, 22, 4, 14)],
  animal: [
    ellipse(24, 27, 8, 13),
    circle(24, 11, 5),
    poly([
      [19, 8],
      [17, 3],
      [22, 7],
    ]),
    poly([
      [29, 8],
      [31, 3],
      [26, 7],
    ]),
    rect(14, 19, 3, 6),
    rect(31, 19, 3, 6),
    rect(14, 32, 3, 6),
    rect(31, 32, 3, 6),
    rect(23, 39, 2, 6),
  ],
  bicycle: [
    rect(22, 4, 4, 14),
    rect(22, 30, 4, 14),
    rect(23, 14, 2, 20),
    rect(14, 12, 20, 3),
    ellipse(24, 26, 3, 4),
  ],
  motorcycle: [
    rect(21, 4, 6, 12),
    rect(21, 32, 6, 12),
    ellipse(24, 24, 6, 11),
    rect(12, 12, 24, 3),
    rect(20, 20, 8, 3, true),
  ],
  scooter: [
    rect(22, 5, 4, 9),
    rect(22, 34, 4, 9),
    rect(13, 10, 22, 3),
    poly([
      [20, 14],
      [28, 14],
      [30, 36],
      [18, 36],
    ]),
  ],
  car: vehicle(20, 38, { nose: true }),
  pickup: [...vehicle(20, 40), rect(17, 24, 14, 14, true), rect(19, 26, 10, 10)],
  van: vehicle(22, 40),
  truck: vehicle(22, 42, { cab: 13 }),
  truck1: [...vehicle(22, 42, { cab: 12 }), rect(17, 18, 14, 20, true), rect(19, 20, 10, 16)],
  truck2: [...vehicle(18, 42, { cab: 11 }), rect(11, 16, 26, 28), rect(13, 18, 22, 2, true)],
  tractor: [
    rect(17, 10, 14, 30),
    rect(8, 26, 8, 14),
    rect(32, 26, 8, 14),
    rect(11, 8, 5, 8),
    rect(32, 8, 5, 8),
    rect(20, 28, 8, 8, true),
  ],
  boat: [
    poly([
      [24, 4],
      [34, 18],
      [34, 44],
      [14, 44],
      [14, 18],
    ]),
    rect(19, 24, 10, 8, true),
  ],
  ship: [
    poly([
      [24, 2],
      [36, 16],
      [36, 46],
      [12, 46],
      [12, 16],
    ]),
    rect(17, 20, 14, 6, true),
    rect(17, 30, 14, 6, true),
    rect(17, 40, 14, 3, true),
  ],
  bus: [...vehicle(18, 44), rect(18, 14, 3, 26, true), rect(27, 14, 3, 26, true)],
  train: [
    rect(17, 4, 14, 19),
    ellipse(24, 6, 7, 4),
    rect(17, 25, 14, 19),
    rect(19, 8, 10, 3, true),
    rect(23, 23, 2, 2),
  ],
  trolleybus: [...vehicle(18, 38), rect(19, 2, 2, 10), rect(27, 2, 2, 10), rect(18, 20, 12, 2, true)],
  tram: [
    rect(17, 6, 14, 38),
    ellipse(24, 7, 7, 4),
    rect(23, 0, 2, 6),
    rect(19, 10, 10, 4, true),
    rect(17, 25, 14, 2, true),
  ],
  crane: [...vehicle(20, 40, { cab: 12 }), rect(22, 2, 4, 30), circle(24, 28, 6), circle(24, 28, 2, true)],
  plane: [
    ellipse(24, 24, 4, 21),
    poly([
      [24, 16],
      [45, 28],
      [45, 32],
      [24, 27],
      [3, 32],
      [3, 28],
    ]),
    poly([
      [24, 38],
      [33, 44],
      [33, 46],
      [15, 46],
      [15, 44],
    ]),
  ],
  helicopter: [
    ellipse(24, 18, 8, 10),
    rect(22, 26, 4, 16),
    rect(17, 40, 14, 3),
    poly([
      [6, 4],
      [9, 2],
      [42, 32],
      [39, 34],
    ]),
    poly([
      [42, 4],
      [39, 2],
      [6, 32],
      [9, 34],
    ]),
  ],
  offroad: [
    ...vehicle(22, 36),
    rect(10, 8, 4, 9),
    rect(34, 8, 4, 9),
    rect(10, 30, 4, 9),
    rect(34, 30, 4, 9),
    circle(24, 44, 3),
  ],
};
