// Drawing a geofence on the map (SPEC §4 "Geofence editing"), as a pure state machine the web's map binding
// drives: circle = click the centre (step 2), then click (or drag) the radius (step 3); polygon and line = click
// vertices, finish by double-click, by clicking the first vertex (polygon) or with Concluir. In step 3 the shape is
// edited by dragging handles: the centre moves the circle, the radius handle resizes it, vertices move, a midpoint
// handle inserts a vertex. Pixel hit-testing is the binding's job: events carry the handle under the pointer.
import { destination, distanceBetween, type GeoArea, type LatLon } from './geo.ts';
import {
  geofenceEditReducer,
  initialGeofenceEdit,
  type GeofenceEditState,
  type GeofenceShape,
} from './geofenceEdit.ts';

/** Smallest circle radius a click or drag can make (metres). */
export const MIN_DRAW_RADIUS_M = 1;
export const MIN_POLYGON_POINTS = 3;
export const MIN_LINE_POINTS = 2;

export interface DrawState {
  shape: GeofenceShape;
  edit: GeofenceEditState;
  center: LatLon | null;
  /** Circle radius in metres (0 until set). */
  radius: number;
  /** Polygon ring (open) or line vertices. */
  points: LatLon[];
  /** Pointer position while drawing, for the preview (null when unknown, e.g. on touch screens). */
  cursor: LatLon | null;
}

export type DrawHandle =
  | { kind: 'center' }
  | { kind: 'radius' }
  | { kind: 'vertex'; index: number }
  | { kind: 'midpoint'; index: number };

export type DrawEvent =
  /** A click or tap at `at`; `hit` = the handle under the pointer, if any. */
  | { type: 'click'; at: LatLon; hit?: DrawHandle | null }
  | { type: 'hover'; at: LatLon }
  /** A handle dragged to `at`. */
  | { type: 'drag'; handle: DrawHandle; at: LatLon }
  /** Double-click, or Concluir: closes a polygon or line that has enough vertices. */
  | { type: 'finish' };

export function startDraw(shape: GeofenceShape): DrawState {
  return {
    shape,
    edit: geofenceEditReducer(initialGeofenceEdit(), { type: 'start', shape }),
    center: null,
    radius: 0,
    points: [],
    cursor: null,
  };
}

export function shapeOfArea(area: GeoArea): GeofenceShape {
  return area.type === 'linestring' ? 'line' : area.type;
}

/** An existing area put into the editing mode (step 3, handles draggable). */
export function drawFromArea(area: GeoArea): DrawState {
  const shape = shapeOfArea(area);
  let edit = geofenceEditReducer(initialGeofenceEdit(), { type: 'start', shape });
  if (shape === 'circle') edit = geofenceEditReducer(edit, { type: 'setCenter' });
  edit = geofenceEditReducer(edit, { type: 'complete' });
  return area.type === 'circle'
    ? { shape, edit, center: { ...area.center }, radius: area.radius, points: [], cursor: null }
    : { shape, edit, center: null, radius: 0, points: area.points.map((p) => ({ ...p })), cursor: null };
}

const minPoints = (shape: GeofenceShape) => (shape === 'polygon' ? MIN_POLYGON_POINTS : MIN_LINE_POINTS);

export function isDrawComplete(s: DrawState): boolean {
  return s.edit.step === 3;
}

/** Whether Concluir can end drawing now (complete, or a polygon/line with enough vertices). */
export function canFinishDraw(s: DrawState): boolean {
  if (isDrawComplete(s)) return true;
  return s.shape !== 'circle' && s.points.length >= minPoints(s.shape);
}

function complete(s: DrawState): DrawState {
  return { ...s, edit: geofenceEditReducer(s.edit, { type: 'complete' }), cursor: null };
}

export function drawReducer(s: DrawState, ev: DrawEvent): DrawState {
  const step = s.edit.step;
  switch (ev.type) {
    case 'hover':
      return step === 3 ? s : { ...s, cursor: ev.at };
    case 'click': {
      if (step === 3) return s;
      if (s.shape === 'circle') {
        if (step === 1)
          return {
            ...s,
            center: ev.at,
            edit: geofenceEditReducer(s.edit, { type: 'setCenter' }),
            cursor: null,
          };
        const radius = s.center ? distanceBetween(s.center, ev.at) : 0;
        return radius >= MIN_DRAW_RADIUS_M ? complete({ ...s, radius }) : s;
      }
      const hit = ev.hit;
      if (hit?.kind === 'vertex') {
        // the second click of a double-click lands on the vertex just added
        if (hit.index === s.points.length - 1) return s;
        if (s.shape === 'polygon' && hit.index === 0 && s.points.length >= MIN_POLYGON_POINTS)
          return complete(s);
      }
      return { ...s, points: [...s.points, ev.at] };
    }
    case 'finish':
      return step !== 3 && canFinishDraw(s) ? complete(s) : s;
    case 'drag':
      return dragHandle(s, ev.handle, ev.at);
  }
}

function dragHandle(s: DrawState, h: DrawHandle, at: LatLon): DrawState {
  switch (h.kind) {
    case 'center':
      return s.center ? { ...s, center: at } : s;
    case 'radius': {
      if (!s.center) return s;
      return { ...s, radius: Math.max(MIN_DRAW_RADIUS_M, distanceBetween(s.center, at)) };
    }
    case 'vertex': {
      if (h.index < 0 || h.index >= s.points.length) return s;
      const points = s.points.slice();
      points[h.index] = at;
      return { ...s, points };
    }
    case 'midpoint': {
      if (h.index < 0 || h.index >= s.points.length) return s;
      const points = s.points.slice();
      points.splice(h.index + 1, 0, at);
      return { ...s, points };
    }
  }
}

/** After the first move of a midpoint drag, the inserted vertex is what the pointer holds. */
export function handleAfterDrag(h: DrawHandle): DrawHandle {
  return h.kind === 'midpoint' ? { kind: 'vertex', index: h.index + 1 } : h;
}

function midpoint(a: LatLon, b: LatLon): LatLon {
  return { latitude: (a.latitude + b.latitude) / 2, longitude: (a.longitude + b.longitude) / 2 };
}

/** The draggable handles and where they are drawn. Midpoints exist only once the shape is complete. */
export function drawHandles(s: DrawState): Array<{ handle: DrawHandle; at: LatLon }> {
  if (s.shape === 'circle') {
    if (!s.center) return [];
    const out: Array<{ handle: DrawHandle; at: LatLon }> = [{ handle: { kind: 'center' }, at: s.center }];
    if (s.radius > 0) out.push({ handle: { kind: 'radius' }, at: destination(s.center, 90, s.radius) });
    return out;
  }
  const out: Array<{ handle: DrawHandle; at: LatLon }> = s.points.map((at, index) => ({
    handle: { kind: 'vertex', index },
    at,
  }));
  if (isDrawComplete(s)) {
    const n = s.points.length;
    const segments = s.shape === 'polygon' ? n : n - 1;
    for (let i = 0; i < segments; i++)
      out.push({ handle: { kind: 'midpoint', index: i }, at: midpoint(s.points[i], s.points[(i + 1) % n]) });
  }
  return out;
}

/** The preview: the shape so far, plus the pointer as the next vertex (or the radius) while drawing. */
export function drawPreview(s: DrawState): GeoArea | null {
  if (s.shape === 'circle') {
    if (!s.center) return null;
    const radius = s.edit.step === 2 && s.cursor ? distanceBetween(s.center, s.cursor) : s.radius;
    return radius > 0 ? { type: 'circle', center: s.center, radius } : null;
  }
  const points = s.edit.step !== 3 && s.cursor ? [...s.points, s.cursor] : s.points;
  if (s.shape === 'polygon' && points.length >= MIN_POLYGON_POINTS) return { type: 'polygon', points };
  if (points.length >= MIN_LINE_POINTS) return { type: 'linestring', points };
  return null;
}

/** Rounds a drawn area for storage: coordinates to 6 decimals (~0.1 m), the radius to 0.1 m. */
export function roundArea(area: GeoArea): GeoArea {
  const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
  const p = (x: LatLon): LatLon => ({ latitude: r6(x.latitude), longitude: r6(x.longitude) });
  if (area.type === 'circle')
    return { type: 'circle', center: p(area.center), radius: Math.round(area.radius * 10) / 10 };
  return { type: area.type, points: area.points.map(p) } as GeoArea;
}

/** The finished area (rounded), or null while the shape is not complete. */
export function drawResult(s: DrawState): GeoArea | null {
  if (!isDrawComplete(s)) return null;
  if (s.shape === 'circle')
    return s.center && s.radius > 0
      ? roundArea({ type: 'circle', center: s.center, radius: s.radius })
      : null;
  if (s.points.length < minPoints(s.shape)) return null;
  return roundArea({ type: s.shape === 'polygon' ? 'polygon' : 'linestring', points: s.points });
}

/** A circle as a closed ring of `steps` + 1 points (for drawing on the map). */
export function circleRing(center: LatLon, radius: number, steps = 64): LatLon[] {
  const ring: LatLon[] = [];
  for (let i = 0; i < steps; i++) ring.push(destination(center, (i * 360) / steps, radius));
  ring.push(ring[0]);
  return ring;
}
