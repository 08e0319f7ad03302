import { describe, expect, it } from 'vitest';
import {
  canFinishDraw,
  circleRing,
  destination,
  distanceBetween,
  drawFromArea,
  drawHandles,
  drawPreview,
  drawReducer,
  drawResult,
  formatArea,
  handleAfterDrag,
  parseArea,
  roundArea,
  startDraw,
  type DrawEvent,
  type DrawState,
} from '../src/index.ts';

const P = (latitude: number, longitude: number) => ({ latitude, longitude });
const run = (s: DrawState, events: DrawEvent[]) => events.reduce(drawReducer, s);
const click = (lat: number, lon: number): DrawEvent => ({ type: 'click', at: P(lat, lon) });

describe('drawing a circle (steps 1 → 2 → 3)', () => {
  const centre = P(-23.55, -46.63);
  it('click the centre, then click the radius: CIRCLE with that centre and the clicked distance', () => {
    let s = startDraw('circle');
    expect(s.edit.step).toBe(1);
    s = drawReducer(s, { type: 'click', at: centre });
    expect(s.edit.step).toBe(2);
    expect(canFinishDraw(s)).toBe(false);
    expect(drawResult(s)).toBeNull();
    const edge = destination(centre, 90, 1000);
    // moving the pointer previews the radius
    const hovered = drawReducer(s, { type: 'hover', at: edge });
    const preview = drawPreview(hovered);
    expect(preview?.type).toBe('circle');
    expect(preview && preview.type === 'circle' ? preview.radius : 0).toBeCloseTo(1000, 3);
    s = drawReducer(hovered, { type: 'click', at: edge });
    expect(s.edit.step).toBe(3);
    const area = drawResult(s);
    expect(area).toEqual({ type: 'circle', center: centre, radius: 1000 });
    expect(formatArea(area!)).toBe('CIRCLE (-23.55 -46.63, 1000)');
  });
  it('a click on the centre itself does not complete it (radius below 1 m)', () => {
    const s = run(startDraw('circle'), [
      { type: 'click', at: centre },
      { type: 'click', at: centre },
    ]);
    expect(s.edit.step).toBe(2);
  });
  it('in step 3 the radius handle resizes and the centre handle moves the circle', () => {
    let s = drawFromArea(parseArea('CIRCLE (-23.55 -46.63, 500)')!);
    expect(s.edit.step).toBe(3);
    const handles = drawHandles(s);
    expect(handles.map((h) => h.handle.kind)).toEqual(['center', 'radius']);
    expect(distanceBetween(handles[1].at, centre)).toBeCloseTo(500, 3);
    s = drawReducer(s, { type: 'drag', handle: { kind: 'radius' }, at: destination(centre, 0, 750) });
    s = drawReducer(s, { type: 'drag', handle: { kind: 'center' }, at: P(-23.56, -46.64) });
    expect(drawResult(s)).toEqual({ type: 'circle', center: P(-23.56, -46.64), radius: 750 });
    // clicks no longer change a complete shape
    expect(drawReducer(s, click(0, 0))).toBe(s);
  });
});

describe('drawing a polygon and a line', () => {
  it('polygon: 4 clicks and Concluir (finish) give a closed POLYGON of the 4 vertices', () => {
    let s = run(startDraw('polygon'), [click(0, 0), click(0, 0.01), click(0.01, 0.01)]);
    expect(canFinishDraw(s)).toBe(true);
    s = run(s, [click(0.01, 0), { type: 'finish' }]);
    expect(s.edit.step).toBe(3);
    expect(formatArea(drawResult(s)!)).toBe('POLYGON ((0 0, 0 0.01, 0.01 0.01, 0.01 0, 0 0))');
  });
  it('the second click of a double-click (on the last vertex) adds nothing; clicking the first vertex closes', () => {
    let s = run(startDraw('polygon'), [click(0, 0), click(0, 1), click(1, 1)]);
    s = drawReducer(s, { type: 'click', at: P(1, 1), hit: { kind: 'vertex', index: 2 } });
    expect(s.points).toHaveLength(3);
    s = drawReducer(s, { type: 'click', at: P(0, 0), hit: { kind: 'vertex', index: 0 } });
    expect(s.edit.step).toBe(3);
    expect(s.points).toHaveLength(3);
  });
  it('a polygon cannot finish with 2 vertices; a line can', () => {
    const poly = run(startDraw('polygon'), [click(0, 0), click(0, 1), { type: 'finish' }]);
    expect(poly.edit.step).toBe(1);
    expect(drawResult(poly)).toBeNull();
    const line = run(startDraw('line'), [click(0, 0), click(0, 1), { type: 'finish' }]);
    expect(formatArea(drawResult(line)!)).toBe('LINESTRING (0 0, 0 1)');
  });
  it('preview adds the pointer as the next vertex while drawing', () => {
    const s = run(startDraw('line'), [click(0, 0), { type: 'hover', at: P(0, 2) }]);
    expect(drawPreview(s)).toEqual({ type: 'linestring', points: [P(0, 0), P(0, 2)] });
  });
  it('editing: vertices move, a midpoint drag inserts a vertex and then holds it', () => {
    let s = drawFromArea(parseArea('POLYGON ((0 0, 0 1, 1 1, 0 0))')!);
    const kinds = drawHandles(s).map((h) => h.handle.kind);
    expect(kinds.filter((k) => k === 'vertex')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'midpoint')).toHaveLength(3); // a ring: 3 edges
    s = drawReducer(s, { type: 'drag', handle: { kind: 'vertex', index: 1 }, at: P(0, 2) });
    const mid = { kind: 'midpoint', index: 0 } as const;
    s = drawReducer(s, { type: 'drag', handle: mid, at: P(-0.5, 1) });
    s = drawReducer(s, { type: 'drag', handle: handleAfterDrag(mid), at: P(-0.6, 1) });
    expect(formatArea(drawResult(s)!)).toBe('POLYGON ((0 0, -0.6 1, 0 2, 1 1, 0 0))');
    const line = drawFromArea(parseArea('LINESTRING (0 0, 0 1, 0 2)')!);
    expect(drawHandles(line).filter((h) => h.handle.kind === 'midpoint')).toHaveLength(2);
  });
});

describe('rounding and circle rings', () => {
  it('rounds coordinates to 6 decimals and the radius to 0.1 m', () => {
    expect(roundArea({ type: 'circle', center: P(-23.123456789, -46.987654321), radius: 123.456 })).toEqual({
      type: 'circle',
      center: P(-23.123457, -46.987654),
      radius: 123.5,
    });
    expect(roundArea({ type: 'linestring', points: [P(1.00000049, 2), P(3, 4.0000008)] })).toEqual({
      type: 'linestring',
      points: [P(1, 2), P(3, 4.000001)],
    });
  });
  it('circleRing is closed and every point is radius metres from the centre', () => {
    const c = P(-23.55, -46.63);
    const ring = circleRing(c, 800, 32);
    expect(ring).toHaveLength(33);
    expect(ring[0]).toEqual(ring[32]);
    for (const p of ring) expect(distanceBetween(c, p)).toBeCloseTo(800, 3);
  });
});
