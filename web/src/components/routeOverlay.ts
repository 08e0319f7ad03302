// Draws a route on the shared live map (history and reports): the line coloured by speed (runs of one colour),
// direction arrows along it, start / end / stop / event marks, and the playback vehicle. Its own sources and
// layers (rastro-route-*), re-added after a base-style switch. The vehicle is a DOM marker: moving it every
// animation frame changes a CSS transform and does not make the map redraw the (possibly 100,000-point) route. The caller turns route mode on so the live map
// does not move the camera meanwhile. A long route read in pages (issue #31) is drawn in pieces: the first page in
// the route's own source, drawn at once, and the pages after it in sources of their own (appendRoute), each given
// to the map as it arrives (once the first page's tiles are in) so the map's worker tiles it while the next pages
// are still coming, each tiled once, and all of them hidden until the map has their tiles, then shown in one
// frame (on a slow link also on the way). Visible pieces drawn as they came made "all drawn" pay for many frames
// of a growing line (session 22: one source per page, 6.5 s against 4.4 s for the same points at once); one
// second source set when the last page is in (sessions 23–25) left the worker idle while the pages came and then
// tiled all of them after the last one (decision 44). Such a route is coloured on a scale fixed before it arrives
// (setRoute's `scale`, domain routeSpeedScale), so each page is coloured once, and the camera is fitted once, to
// the first page.
import { Marker, type GeoJSONSource, type Map as MapLibreMap } from 'maplibre-gl';
import { routeMaxSpeed, type RoutePoint } from '@rastro/domain';
import { useEffect, useRef, type RefObject } from 'react';
import { onLiveMap, useLive } from '../stores/live.ts';
import {
  arrowImage,
  arrowsLayer,
  IMG_ALONG,
  lineData,
  lineLayer,
  marksLayer,
  routeBounds,
  tilesIn,
  type SourceEvent,
  vehicleElement,
  warmRouteLayers,
} from './routeParts.ts';
import { panelPadding, removeSources } from './mapParts.ts';

type RouteMarkKind = 'start' | 'end' | 'stop' | 'event';

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
/**
 * Margin (pixels of a 512-pixel tile) each tile of the route's line holds beyond its edges: enough for the 5-pixel
 * line's round caps and the arrows' anchors; MapLibre's default (128) made each tile of a long route hold and draw
 * about twice its own vertices (a 100,000-point route at its fitted zoom: 187,000 vertices, 90,000 with 16).
 */
const LINE_BUFFER = 32;
/**
 * How far (pixels at the zoom shown) MapLibre's worker may move the line off its points when it simplifies a tile
 * (default 0.375): fewer vertices to bucket, upload and draw in every frame (issue #31); closer zooms keep the detail.
 */
const LINE_TOLERANCE = 1.25;

const MARK_COLORS: Record<RouteMarkKind, string> = {
  start: '#2e7d32',
  end: '#c62828',
  stop: '#1565c0',
  event: '#ef6c00',
};

type FC = GeoJSON.FeatureCollection;
const empty = (): FC => ({ type: 'FeatureCollection', features: [] });

/**
 * A part of the drawn line: its source (piece 0 is the route's first page, the next ones the pages after it), the
 * points it covers, and whether its layers are shown (a piece after the first is hidden until revealed).
 */
interface Piece {
  source: string;
  line: string;
  arrows: string;
  /** its last point's index (a piece after the first starts at the previous one's last point) */
  end: number;
  data: FC;
  shown: boolean;
}

const pieceIds = (k: number) =>
  k === 0
    ? { source: SRC_LINE, line: 'rastro-route-line', arrows: 'rastro-route-arrows' }
    : { source: `${SRC_LINE}-${k}`, line: `rastro-route-line-${k}`, arrows: `rastro-route-arrows-${k}` };

export interface RouteOverlayStats {
  points: number;
  runs: number;
  /** sources the line is drawn in (1, and one more for each piece appended after the first page) */
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

/** The stats of no route drawn. */
const NO_ROUTE = { points: 0, runs: 0, pieces: 1, marks: 0, vehicle: null };

/** Maps whose route programs a warm frame linked. */
const warmed = new WeakSet<MapLibreMap>();

export class RouteOverlay {
  private unwarm: (() => void) | null = null;
  private pieces: Piece[] = [{ ...pieceIds(0), end: -1, data: empty(), shown: true }];
  private marks: FC = empty();
  /** The marks set last, as text (setMarks). */
  private marksKey = '';
  /** The colour scale's top speed given to setRoute (null: each route on its own top speed). */
  private scale: number | null = null;
  private marker: Marker | null = null;
  private readonly stats: RouteOverlayStats = { ...NO_ROUTE, vehicleUpdates: 0 };
  private readonly onStyle = () => this.ensure();
  /** Whether the first piece's tiles are in (pieces appended before wait in `pending`, see appendRoute). */
  private firstLoaded = true;
  private pending: { points: readonly RoutePoint[]; reveal: boolean } | null = null;
  private drawnWaiters: Array<() => void> = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** The first piece's tiles are in: what waits is given to the map after the frame that draws them. */
  private readonly onFirstLoaded = (e: SourceEvent) => {
    if (e.type !== 'idle' && (e.sourceId !== SRC_LINE || !tilesIn(e) || !this.sourceLoaded(SRC_LINE))) return;
    this.stopFirst();
    if (e.type === 'idle') this.flushPending();
    else this.map.on('render', this.onFirstFrame);
  };
  private readonly onFirstFrame = () => {
    this.map.off('render', this.onFirstFrame);
    this.flushTimer = setTimeout(() => this.flushPending(), 0);
  };
  /**
   * Once revealing (see appendRoute): shows every hidden piece together when the map has all their tiles in view,
   * or at the map's next idle whatever happened, then stops listening.
   */
  private readonly onRestLoaded = (e: SourceEvent) => {
    const hidden = this.pieces.filter((p) => !p.shown);
    if (e.type !== 'idle') {
      if (!hidden.some((p) => p.source === e.sourceId) || !tilesIn(e)) return;
      if (!hidden.every((p) => this.sourceLoaded(p.source))) return;
    }
    this.stopWaiting();
    for (const piece of hidden) this.showPiece(piece, true);
  };

  constructor(readonly map: MapLibreMap) {
    map.on('style.load', this.onStyle);
    this.ensure();
    window.__rastroRoute = { stats: () => ({ ...this.stats }) };
  }

  /** The route layers' programs linked now, in a frame nobody sees (warmRouteLayers), once per map. */
  warm(): void {
    if (warmed.has(this.map)) return;
    try {
      this.ensure();
      this.unwarm = warmRouteLayers(this.map);
      warmed.add(this.map);
    } catch {
      // the style is not loaded yet: the route's first frame links them
    }
  }

  /** Adds our images, sources and layers when the style is there and they are missing. */
  private ensure(): void {
    const map = this.map;
    try {
      if (!map.hasImage(IMG_ALONG)) map.addImage(IMG_ALONG, arrowImage(), { pixelRatio: 2 });
      if (!map.getSource(SRC_MARKS)) map.addSource(SRC_MARKS, { type: 'geojson', data: this.marks });
      if (!map.getLayer(MARKS_LAYER)) map.addLayer(marksLayer(MARKS_LAYER, SRC_MARKS));
      for (const piece of this.pieces) this.ensurePiece(piece);
    } catch {
      // the style is mid-switch; style.load calls again
    }
  }

  /** A piece's source and its two layers (line, arrows), under the marks. */
  private ensurePiece(piece: Piece): void {
    const map = this.map;
    if (!map.getSource(piece.source))
      map.addSource(piece.source, {
        type: 'geojson',
        data: piece.data,
        buffer: LINE_BUFFER,
        tolerance: LINE_TOLERANCE,
      });
    const before = map.getLayer(MARKS_LAYER) ? MARKS_LAYER : undefined;
    if (!map.getLayer(piece.line))
      map.addLayer(lineLayer(piece.line, piece.source, piece.shown ? 0.9 : 0), before);
    if (!map.getLayer(piece.arrows))
      map.addLayer(arrowsLayer(piece.arrows, piece.source, piece.shown ? 1 : 0), before);
  }

  private sourceLoaded(id: string): boolean {
    try {
      return this.map.isSourceLoaded(id);
    } catch {
      return false; // the style is mid-switch
    }
  }

  /** A piece's line and arrows shown (their opacity) or hidden (nothing drawn, its tiles still loaded). */
  private showPiece(piece: Piece, shown: boolean): void {
    piece.shown = shown;
    try {
      if (this.map.getLayer(piece.line))
        this.map.setPaintProperty(piece.line, 'line-opacity', shown ? 0.9 : 0);
      if (this.map.getLayer(piece.arrows))
        this.map.setPaintProperty(piece.arrows, 'icon-opacity', shown ? 1 : 0);
    } catch {
      // the map is being removed
    }
  }

  /** Shows the hidden pieces once they are all loaded (onRestLoaded). */
  private reveal(): void {
    if (!this.pieces.some((p) => !p.shown)) return;
    this.stopWaiting();
    this.map.on('sourcedata', this.onRestLoaded);
    this.map.on('idle', this.onRestLoaded);
  }

  private stopFirst(): void {
    this.map.off('sourcedata', this.onFirstLoaded);
    this.map.off('idle', this.onFirstLoaded);
    this.map.off('render', this.onFirstFrame);
    clearTimeout(this.flushTimer);
  }

  private flushPending(): void {
    this.firstLoaded = true;
    const p = this.pending;
    this.pending = null;
    if (p) this.appendRoute(p.points, p.reveal);
    for (const fn of this.drawnWaiters.splice(0)) fn();
  }

  /** Calls `fn` after the frame that draws the first piece's tiles (at once when no route is on its way). */
  whenFirstDrawn(fn: () => void): void {
    if (this.firstLoaded) fn();
    else this.drawnWaiters.push(fn);
  }

  private stopWaiting(): void {
    this.map.off('sourcedata', this.onRestLoaded);
    this.map.off('idle', this.onRestLoaded);
  }

  /** Removes the pieces after the first (a new route, leaving the page). */
  private dropPieces(from: number): void {
    if (from <= 1) this.stopWaiting();
    removeSources(this.map, ...this.pieces.slice(from).map((p) => p.source));
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
    this.stopFirst();
    this.pending = null;
    this.firstLoaded = false;
    this.map.on('sourcedata', this.onFirstLoaded);
    this.map.on('idle', this.onFirstLoaded);
    this.scale = scale ?? null;
    const first = this.pieces[0];
    first.end = points.length - 1;
    first.data = lineData(points, 0, first.end, scale ?? routeMaxSpeed(points));
    this.setMarks(marks);
    this.set(first.source, first.data);
    this.count(points);
    if (fit && points.length) this.fit(points);
  }

  /**
   * Draws the points after the ones drawn so far (the next pages of the same route, `points` being the whole route
   * so far) as a new piece: a source of their own joined to the previous piece's line, on the colour scale of
   * setRoute, hidden until revealed; the pieces drawn before are left as they are and the camera does not move.
   * Each piece is tiled by the map's worker once, as it arrives, while the next pages are still coming. With
   * `reveal`, the hidden pieces are shown together once the map has all their tiles in view (or at its next idle):
   * the map draws a frame as each tile comes, and in software WebGL a frame holding a long route's line costs a
   * large part of a second; hidden, those frames cost what the map cost without it, and the rest appears in one frame.
   */
  appendRoute(points: readonly RoutePoint[], reveal = true): void {
    const first = this.pieces[0];
    if (first.end < 0) {
      this.setRoute(points, [], true, this.scale ?? undefined);
      return;
    }
    if (!this.firstLoaded) {
      // the map's worker cuts the first piece's tiles and the map draws them first: what came meanwhile waits, as
      // one piece
      this.pending = { points, reveal: reveal || !!this.pending?.reveal };
      this.count(points);
      return;
    }
    const drawn = this.pieces[this.pieces.length - 1];
    if (points.length - 1 > drawn.end) {
      const end = points.length - 1;
      const data = lineData(points, drawn.end, end, this.scale ?? routeMaxSpeed(points));
      const piece: Piece = { ...pieceIds(this.pieces.length), end, data, shown: false };
      this.pieces.push(piece);
      try {
        this.ensurePiece(piece);
      } catch {
        // the style is mid-switch; style.load adds it
      }
    }
    if (reveal) this.reveal();
    this.count(points);
  }

  private count(points: readonly RoutePoint[]): void {
    this.stats.points = points.length;
    this.stats.runs = this.pieces.reduce((n, p) => n + p.data.features.length, 0);
    this.stats.pieces = this.pieces.length;
  }

  /**
   * Sets the start / end / stop / event marks; the same marks again change nothing (a new source's data would
   * cost a frame, in software WebGL a large part of a second with a long route on the map).
   */
  setMarks(marks: readonly RouteMark[]): void {
    const key = marks.map((m) => `${m.kind} ${m.latitude} ${m.longitude} ${m.label ?? ''}`).join('\n');
    if (key === this.marksKey) return;
    this.marksKey = key;
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
      this.marker ??= new Marker({
        element: vehicleElement(),
        rotationAlignment: 'map',
        pitchAlignment: 'map',
      })
        .setLngLat([frame.longitude, frame.latitude])
        .addTo(this.map);
      this.marker.setLngLat([frame.longitude, frame.latitude]).setRotation(frame.course);
    }
    this.stats.vehicleUpdates++;
    this.stats.vehicle = frame;
  }

  fit(points: ReadonlyArray<{ latitude: number; longitude: number }>): void {
    this.fitExtent(routeBounds(points));
  }

  /** Fits the camera to [west, south, east, north] (a long route's extent, known before all of it arrives). */
  fitExtent([w, s, e, n]: readonly [number, number, number, number]): void {
    if (!Number.isFinite(w)) return;
    const padding = panelPadding(this.map);
    if (w === e && s === n) this.map.jumpTo({ center: [w, s], zoom: 16, padding });
    else this.map.fitBounds([w, s, e, n], { padding, maxZoom: 17, duration: 0 });
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
    this.stopFirst();
    this.pending = null;
    this.flushPending(); // no route on its way: whoever waits for its first frame goes on
    Object.assign(this.pieces[0], { end: -1, data: empty(), shown: true });
    this.marks = empty();
    this.marksKey = '';
    this.set(SRC_LINE, this.pieces[0].data);
    this.set(SRC_MARKS, this.marks);
    this.marker?.remove();
    this.marker = null;
    Object.assign(this.stats, NO_ROUTE);
  }

  /** Removes our layers and sources (leaving the page). */
  destroy(): void {
    this.map.off('style.load', this.onStyle);
    this.unwarm?.();
    this.stopFirst();
    this.marker?.remove();
    this.marker = null;
    this.dropPieces(0);
    removeSources(this.map, SRC_MARKS);
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
      overlay.current?.warm();
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
