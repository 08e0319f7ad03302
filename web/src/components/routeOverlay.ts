// Draws a route on the shared live map (history and reports): the line coloured by speed (runs of one colour),
// direction arrows along it, start / end / stop / event marks, and the playback vehicle. Its own sources and
// layers (rastro-route-*), re-added after a base-style switch. The vehicle is a DOM marker: moving it every
// animation frame changes a CSS transform and does not make the map redraw the (possibly 100,000-point) route. The caller turns route mode on so the live map
// does not move the camera meanwhile.
import { Marker, type GeoJSONSource, type Map as MapLibreMap } from 'maplibre-gl';
import { colourRuns, type RoutePoint } from '@rastro/domain';
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
const LAYERS = ['rastro-route-line', 'rastro-route-arrows', 'rastro-route-marks'];
const IMG_ALONG = 'rastro-route-arrow';
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
  private line: FC = empty();
  private marks: FC = empty();
  private marker: Marker | null = null;
  private readonly stats: RouteOverlayStats = {
    points: 0,
    runs: 0,
    marks: 0,
    vehicleUpdates: 0,
    vehicle: null,
  };
  private readonly onStyle = () => this.ensure();

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
      if (!map.getSource(SRC_LINE)) map.addSource(SRC_LINE, { type: 'geojson', data: this.line });
      if (!map.getSource(SRC_MARKS)) map.addSource(SRC_MARKS, { type: 'geojson', data: this.marks });
      if (!map.getLayer('rastro-route-line'))
        map.addLayer({
          id: 'rastro-route-line',
          type: 'line',
          source: SRC_LINE,
          layout: { 'line-cap': 'round', 'line-join': 'round' },
          paint: { 'line-color': ['get', 'color'], 'line-width': 5, 'line-opacity': 0.9 },
        });
      if (!map.getLayer('rastro-route-arrows'))
        map.addLayer({
          id: 'rastro-route-arrows',
          type: 'symbol',
          source: SRC_LINE,
          layout: {
            'symbol-placement': 'line',
            'symbol-spacing': 90,
            'icon-image': IMG_ALONG,
            'icon-allow-overlap': true,
            'icon-ignore-placement': true,
          },
        });
      if (!map.getLayer('rastro-route-marks'))
        map.addLayer({
          id: 'rastro-route-marks',
          type: 'circle',
          source: SRC_MARKS,
          paint: {
            'circle-radius': ['match', ['get', 'kind'], 'start', 8, 'end', 8, 6],
            'circle-color': ['get', 'color'],
            'circle-stroke-color': '#ffffff',
            'circle-stroke-width': 2,
          },
        });
    } catch {
      // the style is mid-switch; style.load calls again
    }
  }

  private set(src: string, data: FC): void {
    this.ensure();
    this.map.getSource<GeoJSONSource>(src)?.setData(data);
  }

  /** Draws a route and its marks; fits the camera to it unless fit is false. */
  setRoute(points: readonly RoutePoint[], marks: readonly RouteMark[] = [], fit = true): void {
    const runs = colourRuns(points);
    this.line = {
      type: 'FeatureCollection',
      features: runs.map((r) => ({
        type: 'Feature',
        properties: { color: r.color },
        geometry: { type: 'LineString', coordinates: r.coordinates },
      })),
    };
    if (points.length === 1) {
      const p = points[0];
      this.line.features.push({
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
    this.setMarks(marks);
    this.set(SRC_LINE, this.line);
    this.stats.points = points.length;
    this.stats.runs = runs.length;
    if (fit && points.length) this.fit(points);
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
    if (!Number.isFinite(w)) return;
    const padding = this.padding();
    if (w === e && s === n) this.map.jumpTo({ center: [w, s], zoom: 16, padding });
    else this.map.fitBounds([w, s, e, n], { padding, maxZoom: 17, duration: 0 });
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
    this.line = empty();
    this.marks = empty();
    this.set(SRC_LINE, this.line);
    this.set(SRC_MARKS, this.marks);
    this.marker?.remove();
    this.marker = null;
    this.stats.points = 0;
    this.stats.runs = 0;
    this.stats.marks = 0;
    this.stats.vehicle = null;
  }

  /** Removes our layers and sources (leaving the page). */
  destroy(): void {
    this.map.off('style.load', this.onStyle);
    this.marker?.remove();
    this.marker = null;
    try {
      for (const id of [...LAYERS].reverse()) if (this.map.getLayer(id)) this.map.removeLayer(id);
      for (const src of [SRC_LINE, SRC_MARKS]) if (this.map.getSource(src)) this.map.removeSource(src);
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
