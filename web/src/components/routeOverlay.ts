// Draws a route on the shared live map (history and reports): the line coloured by speed (runs of one colour),
// direction arrows along it, start / end / stop / event marks, and the playback vehicle. Its own sources and
// layers (rastro-route-*), re-added after a base-style switch. The vehicle is a DOM marker: moving it every
// animation frame changes a CSS transform and does not make the map redraw the (possibly 100,000-point) route. The caller turns route mode on so the live map
// does not move the camera meanwhile. A long route read in pages (issue #31) is drawn in two pieces: the first
// page in the route's own source, drawn at once, and everything after it in ONE second source (appendRoute), which
// the caller redraws as few times as it can (once, when the last page is in, on a fast link). Each map source
// costs the map worker its tiling and every frame its line and arrow layers, and in software WebGL a frame of a
// 100,000-point route costs about a second: one source and two layers per page made "all drawn" pay for many
// more frames than the same points drawn at once (session 22: 6.5 s against 4.4 s). Such a route is coloured on a
// scale fixed before it arrives (setRoute's `scale`, domain routeSpeedScale), so the first page is coloured once
// and the rest on the same scale, and the camera is fitted once, to the first page.
import { Marker, type GeoJSONSource, type Map as MapLibreMap } from 'maplibre-gl';
import { colourRuns, routeMaxSpeed, type RoutePoint } from '@rastro/domain';
import { useEffect, useRef, type RefObject } from 'react';
import { onLiveMap, useLive } from '../stores/live.ts';

export type RouteMarkKind = 'start' | 'end' | 'stop' | 'event';

export interface RouteMark {
  kind: RouteMarkKind;
  latitude: number;
  longitude: number;
  label?: string;
}

export interface VehicleFrame {
  latitude: number;
  longitude: number;
  course: number;
}

const SRC_LINE = 'rastro-route';
const SRC_MARKS = 'rastro-route-marks';
const MARKS_LAYER = 'rastro-route-marks';
const IMG_ALONG = 'rastro-route-arrow';
/**
 * Margin (pixels of a 512-pixel tile) each tile of the route's line holds beyond its edges: enough for the 5-pixel
 * line's round caps and the arrows' anchors; MapLibre's default (128) made each tile of a long route hold and draw
 * about twice its own vertices (a 100,000-point route at its fitted zoom: 187,000 vertices, 90,000 with 16).
 */
const LINE_BUFFER = 32;
/** Panel width (420) plus a margin. */
const PANEL_INSET = 480;

export const MARK_COLORS: Record<RouteMarkKind, string> = {
  start: '#2e7d32',
  end: '#c62828',
  stop: '#1565c0',
  event: '#ef6c00',
};

type FC = GeoJSON.FeatureCollection;
const empty = (): FC => ({ type: 'FeatureCollection', features: [] });

/** [west, south, east, north] of the points (Infinity when there are none). */
function bounds(points: ReadonlyArray<{ latitude: number; longitude: number }>): number[] {
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (const p of points) {
    if (p.longitude < w) w = p.longitude;
    if (p.longitude > e) e = p.longitude;
    if (p.latitude < s) s = p.latitude;
    if (p.latitude > n) n = p.latitude;
  }
  return [w, s, e, n];
}

/** A part of the drawn line: its source (piece 0 is the route's first page, piece 1 the rest), the points it covers. */
interface Piece {
  source: string;
  line: string;
  arrows: string;
  /** points[start … end] (end inclusive; a piece after the first starts at the previous one's last point) */
  start: number;
  end: number;
  maxSpeed: number;
  data: FC;
}

const pieceIds = (k: number) =>
  k === 0
    ? { source: SRC_LINE, line: 'rastro-route-line', arrows: 'rastro-route-arrows' }
    : { source: `${SRC_LINE}-${k}`, line: `rastro-route-line-${k}`, arrows: `rastro-route-arrows-${k}` };

/** The line features of points[start … end] coloured on the scale of `maxSpeed`. */
function lineData(points: readonly RoutePoint[], start: number, end: number, maxSpeed: number): FC {
  const slice = points.slice(start, end + 1);
  const data: FC = {
    type: 'FeatureCollection',
    features: colourRuns(slice, maxSpeed).map((r) => ({
      type: 'Feature',
      properties: { color: r.color },
      geometry: { type: 'LineString', coordinates: r.coordinates },
    })),
  };
  if (slice.length === 1) {
    const p = slice[0];
    data.features.push({
      type: 'Feature',
      properties: { color: '#1a9850' },
      geometry: {
        type: 'LineString',
        coordinates: [
          [p.longitude, p.latitude],
          [p.longitude, p.latitude],
        ],
      },
    });
  }
  return data;
}

/** A filled triangle as RGBA pixels, pointing right ('along' a line) or up (north, rotated by course). */
export function arrowImage(size: number, pointing: 'right' | 'up', rgb: [number, number, number]) {
  const data = new Uint8Array(size * size * 4);
  const m = size * 0.15;
  // triangle tip at the right edge (or top), base on the left (or bottom)
  const tri =
    pointing === 'right'
      ? [
          [size - m, size / 2],
          [m, m],
          [m, size - m],
        ]
      : [
          [size / 2, m],
          [size - m, size - m],
          [m, size - m],
        ];
  const sign = (p: number[], a: number[], b: number[]) =>
    (p[0] - b[0]) * (a[1] - b[1]) - (a[0] - b[0]) * (p[1] - b[1]);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const p = [x + 0.5, y + 0.5];
      const d1 = sign(p, tri[0], tri[1]);
      const d2 = sign(p, tri[1], tri[2]);
      const d3 = sign(p, tri[2], tri[0]);
      const inside = !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
      if (!inside) continue;
      const o = (y * size + x) * 4;
      data[o] = rgb[0];
      data[o + 1] = rgb[1];
      data[o + 2] = rgb[2];
      data[o + 3] = 255;
    }
  return { width: size, height: size, data };
}

/** The playback vehicle: a white disc with a blue arrow pointing north (rotated by the course). */
function vehicleElement(): HTMLElement {
  const el = document.createElement('div');
  el.dataset.testid = 'route-vehicle';
  el.style.cssText =
    'width:26px;height:26px;border-radius:50%;background:#fff;border:3px solid #1565c0;box-sizing:border-box;' +
    'display:flex;align-items:center;justify-content:center;box-shadow:0 1px 4px rgba(0,0,0,.4);pointer-events:none';
  el.innerHTML =
    '<svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true"><path d="M7 0 L13 13 L7 10 L1 13 Z" fill="#1565c0"/></svg>';
  return el;
}

export interface RouteOverlayStats {
  points: number;
  runs: number;
  /** sources the line is drawn in (1, or 2 once points are appended after the first page) */
  pieces: number;
  marks: number;
  vehicleUpdates: number;
  vehicle: VehicleFrame | null;
}

declare global {
  interface Window {
    /** Test and benchmark hook: what the route overlay drew. */
    __rastroRoute?: { stats(): RouteOverlayStats };
  }
}

export class RouteOverlay {
  private pieces: Piece[] = [{ ...pieceIds(0), start: 0, end: -1, maxSpeed: 0, data: empty() }];
  private marks: FC = empty();
  /** The colour scale's top speed given to setRoute (null: each route on its own top speed). */
  private scale: number | null = null;
  private marker: Marker | null = null;
  private readonly stats: RouteOverlayStats = {
    points: 0,
    runs: 0,
    pieces: 1,
    marks: 0,
    vehicleUpdates: 0,
    vehicle: null,
  };
  private readonly onStyle = () => this.ensure();
  /**
   * Shows the rest piece once the map has all its tiles in view (see appendRoute), or at the map's next idle
   * whatever happened, then stops listening.
   */
  private readonly onRestLoaded = (e: { type: string; sourceId?: string }) => {
    const rest = this.pieces[1];
    if (!rest) return;
    if (e.type !== 'idle' && (e.sourceId !== rest.source || !this.map.isSourceLoaded(rest.source))) return;
    this.showPiece(rest, true);
  };

  constructor(readonly map: MapLibreMap) {
    map.on('style.load', this.onStyle);
    this.ensure();
    window.__rastroRoute = { stats: () => ({ ...this.stats }) };
  }

  /** Adds our images, sources and layers when the style is there and they are missing. */
  private ensure(): void {
    const map = this.map;
    try {
      if (!map.hasImage(IMG_ALONG))
        map.addImage(IMG_ALONG, arrowImage(24, 'right', [255, 255, 255]), { pixelRatio: 2 });
      if (!map.getSource(SRC_MARKS)) map.addSource(SRC_MARKS, { type: 'geojson', data: this.marks });
      if (!map.getLayer(MARKS_LAYER))
        map.addLayer({
          id: MARKS_LAYER,
          type: 'circle',
          source: SRC_MARKS,
          paint: {
            'circle-radius': ['match', ['get', 'kind'], 'start', 8, 'end', 8, 6],
            'circle-color': ['get', 'color'],
            'circle-stroke-color': '#ffffff',
            'circle-stroke-width': 2,
          },
        });
      for (const piece of this.pieces) this.ensurePiece(piece);
    } catch {
      // the style is mid-switch; style.load calls again
    }
  }

  /** A piece's source and its two layers (line, arrows), under the marks. */
  private ensurePiece(piece: Piece): void {
    const map = this.map;
    if (!map.getSource(piece.source))
      map.addSource(piece.source, { type: 'geojson', data: piece.data, buffer: LINE_BUFFER });
    const before = map.getLayer(MARKS_LAYER) ? MARKS_LAYER : undefined;
    if (!map.getLayer(piece.line))
      map.addLayer(
        {
          id: piece.line,
          type: 'line',
          source: piece.source,
          layout: { 'line-cap': 'round', 'line-join': 'round' },
          paint: { 'line-color': ['get', 'color'], 'line-width': 5, 'line-opacity': 0.9 },
        },
        before,
      );
    if (!map.getLayer(piece.arrows))
      map.addLayer(
        {
          id: piece.arrows,
          type: 'symbol',
          source: piece.source,
          layout: {
            'symbol-placement': 'line',
            'symbol-spacing': 90,
            'icon-image': IMG_ALONG,
            'icon-allow-overlap': true,
            'icon-ignore-placement': true,
          },
        },
        before,
      );
  }

  /** A piece's line and arrows shown (their opacity) or hidden (nothing drawn, its tiles still loaded). */
  private showPiece(piece: Piece, shown: boolean): void {
    this.stopWaiting();
    if (!shown) {
      this.map.on('sourcedata', this.onRestLoaded);
      this.map.on('idle', this.onRestLoaded);
    }
    try {
      if (this.map.getLayer(piece.line))
        this.map.setPaintProperty(piece.line, 'line-opacity', shown ? 0.9 : 0);
      if (this.map.getLayer(piece.arrows))
        this.map.setPaintProperty(piece.arrows, 'icon-opacity', shown ? 1 : 0);
    } catch {
      // the map is being removed
    }
  }

  private stopWaiting(): void {
    this.map.off('sourcedata', this.onRestLoaded);
    this.map.off('idle', this.onRestLoaded);
  }

  /** Removes the pieces after the first (a new route, leaving the page). */
  private dropPieces(from: number): void {
    if (from <= 1) this.stopWaiting();
    for (const piece of this.pieces.slice(from)) {
      try {
        if (this.map.getLayer(piece.arrows)) this.map.removeLayer(piece.arrows);
        if (this.map.getLayer(piece.line)) this.map.removeLayer(piece.line);
        if (this.map.getSource(piece.source)) this.map.removeSource(piece.source);
      } catch {
        // the map is being removed
      }
    }
    this.pieces = this.pieces.slice(0, from);
  }

  private set(src: string, data: FC): void {
    this.ensure();
    this.map.getSource<GeoJSONSource>(src)?.setData(data);
  }

  /**
   * Draws a route and its marks; fits the camera to it unless fit is false. Coloured on `scale` (top speed of the
   * colour scale, knots) when given, which the pages appended after it keep; else on the route's own top speed.
   */
  setRoute(
    points: readonly RoutePoint[],
    marks: readonly RouteMark[] = [],
    fit = true,
    scale?: number,
  ): void {
    this.dropPieces(1);
    this.scale = scale ?? null;
    const maxSpeed = scale ?? routeMaxSpeed(points);
    const first = this.pieces[0];
    Object.assign(first, { start: 0, end: points.length - 1, maxSpeed });
    first.data = lineData(points, 0, points.length - 1, maxSpeed);
    this.setMarks(marks);
    this.set(first.source, first.data);
    this.count(points);
    if (fit && points.length) this.fit(points);
  }

  /**
   * Draws the points after the first piece (the next pages of the same route, `points` being the whole route so
   * far) in the second piece, one source joined to the first piece's line, on the colour scale of setRoute: the
   * first piece is left as it is, the second is replaced by all the points after it, and the camera does not move.
   */
  appendRoute(points: readonly RoutePoint[]): void {
    const first = this.pieces[0];
    if (first.end < 0) {
      this.setRoute(points, [], true, this.scale ?? undefined);
      return;
    }
    const drawn = this.pieces[this.pieces.length - 1];
    if (points.length - 1 <= drawn.end) return;
    const maxSpeed = this.scale ?? routeMaxSpeed(points);
    const data = lineData(points, first.end, points.length - 1, maxSpeed);
    const rest = this.pieces[1];
    if (rest) {
      Object.assign(rest, { end: points.length - 1, maxSpeed, data });
      this.set(rest.source, data);
    } else {
      const piece: Piece = { ...pieceIds(1), start: first.end, end: points.length - 1, maxSpeed, data };
      this.pieces.push(piece);
      try {
        this.ensurePiece(piece);
        // hidden until the worker has cut all its tiles in view: the map draws a frame as each tile comes, and in
        // software WebGL a frame holding a long route's line costs a large part of a second; hidden, those
        // frames cost what the map cost without it, and the whole rest appears in one frame
        this.showPiece(piece, false);
      } catch {
        // the style is mid-switch; style.load adds it
      }
    }
    this.count(points);
  }

  private count(points: readonly RoutePoint[]): void {
    this.stats.points = points.length;
    this.stats.runs = this.pieces.reduce((n, p) => n + p.data.features.length, 0);
    this.stats.pieces = this.pieces.length;
  }

  setMarks(marks: readonly RouteMark[]): void {
    this.marks = {
      type: 'FeatureCollection',
      features: marks.map((m) => ({
        type: 'Feature',
        properties: { kind: m.kind, color: MARK_COLORS[m.kind], label: m.label ?? '' },
        geometry: { type: 'Point', coordinates: [m.longitude, m.latitude] },
      })),
    };
    this.set(SRC_MARKS, this.marks);
    this.stats.marks = marks.length;
  }

  /** Moves the playback vehicle (a DOM marker rotated by the course: no map redraw). */
  setVehicle(frame: VehicleFrame | null): void {
    if (!frame) {
      this.marker?.remove();
      this.marker = null;
    } else {
      if (!this.marker) {
        this.marker = new Marker({
          element: vehicleElement(),
          rotationAlignment: 'map',
          pitchAlignment: 'map',
        })
          .setLngLat([frame.longitude, frame.latitude])
          .addTo(this.map);
      }
      this.marker.setLngLat([frame.longitude, frame.latitude]).setRotation(frame.course);
    }
    this.stats.vehicleUpdates++;
    this.stats.vehicle = frame;
  }

  fit(points: ReadonlyArray<{ latitude: number; longitude: number }>): void {
    const [w, s, e, n] = bounds(points);
    if (!Number.isFinite(w)) return;
    const padding = this.padding();
    if (w === e && s === n) this.map.jumpTo({ center: [w, s], zoom: 16, padding });
    else this.map.fitBounds([w, s, e, n], { padding, maxZoom: 17, duration: 0 });
  }

  /** Fits the camera to [west, south, east, north] (a long route's extent, known before all of it arrives). */
  fitExtent([w, s, e, n]: readonly [number, number, number, number]): void {
    this.fit([
      { latitude: s, longitude: w },
      { latitude: n, longitude: e },
    ]);
  }

  /** The side panel covers the map's left part on wide screens: keep the route beside it. */
  private padding() {
    const width = this.map.getContainer().clientWidth;
    const left = width > 900 ? PANEL_INSET : 40;
    return { top: 60, bottom: 60, right: 60, left };
  }

  /** Flies to a point (a report row, a clicked table row). */
  flyTo(latitude: number, longitude: number, zoom = 16): void {
    this.map.flyTo({
      center: [longitude, latitude],
      zoom: Math.max(zoom, this.map.getZoom()),
      duration: 800,
    });
  }

  clear(): void {
    this.dropPieces(1);
    Object.assign(this.pieces[0], { start: 0, end: -1, maxSpeed: 0, data: empty() });
    this.marks = empty();
    this.set(SRC_LINE, this.pieces[0].data);
    this.set(SRC_MARKS, this.marks);
    this.marker?.remove();
    this.marker = null;
    this.stats.points = 0;
    this.stats.runs = 0;
    this.stats.pieces = 1;
    this.stats.marks = 0;
    this.stats.vehicle = null;
  }

  /** Removes our layers and sources (leaving the page). */
  destroy(): void {
    this.map.off('style.load', this.onStyle);
    this.marker?.remove();
    this.marker = null;
    this.dropPieces(0);
    try {
      if (this.map.getLayer(MARKS_LAYER)) this.map.removeLayer(MARKS_LAYER);
      if (this.map.getSource(SRC_MARKS)) this.map.removeSource(SRC_MARKS);
    } catch {
      // the map is being removed
    }
    if (window.__rastroRoute) delete window.__rastroRoute;
  }
}

/** A RouteOverlay on the live map while the calling component is mounted, with route mode on. */
export function useRouteOverlay(): RefObject<RouteOverlay | null> {
  const overlay = useRef<RouteOverlay | null>(null);
  useEffect(() => {
    useLive.getState().setRouteMode(true);
    let current: MapLibreMap | null = null;
    const off = onLiveMap((map) => {
      if (map === current) return;
      overlay.current?.destroy();
      overlay.current = map ? new RouteOverlay(map) : null;
      current = map;
    });
    return () => {
      off();
      overlay.current?.destroy();
      overlay.current = null;
      useLive.getState().setRouteMode(false);
    };
  }, []);
  return overlay;
}
