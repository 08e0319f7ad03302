/// <reference types="geojson" />
// Drives the MapLibre map from the stores, outside React: ONE GeoJSON source for all devices (symbol layers,
// never DOM markers), diffs instead of full reloads (clustered or not), and a requestAnimationFrame loop that
// glides the moving markers a user can see over 500 ms, sending at most one merged diff per frame. Markers out of
// view, or hidden inside a cluster, move at once: gliding them would cost the worker and the main thread a tile
// reload per frame for nothing anybody sees.
import type { GeoJSONSource, Map as MapLibreMap, MapLayerMouseEvent, StyleSpecification } from 'maplibre-gl';
import {
  centerOnDevice,
  MARKER_MOVE_MS,
  type Device,
  type Geofence,
  type MapPref,
  type Position,
} from '@rastro/domain';
import { deviceFeature, geofenceFeatures, type DeviceFeature } from './features.ts';
import type { IconImage } from '../../api/mapIcons.ts';
import {
  addLabelLayers,
  applyGeofenceVisibility,
  addDeviceSource,
  CLUSTER_MAX_ZOOM,
  geofenceLayers,
  SRC_DEVICES,
  SRC_GEOFENCE_LABELS,
  SRC_GEOFENCES,
} from './layers.ts';
import { underPanel, visibleOffset } from './panelView.ts';
import { onPanelMoved } from '../../components/panelMoves.ts';
import { removeSources } from '../../components/mapParts.ts';

const SRC_TRAIL = 'rastro-trail';

export interface MapInputs {
  devices: Device[];
  positions: Record<number, Position>;
  mapPref: MapPref;
  selectedId: number | null;
  trail: Array<[number, number]>;
}

interface Anim {
  from: [number, number];
  to: [number, number];
  start: number;
}

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
const ease = (t: number) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);

/** Most markers gliding at once; past it a move jumps (a burst over a huge unclustered fleet stays cheap). */
export const MAX_GLIDES = 400;
/** How often (ms) the set of markers drawn on their own (not inside a cluster) is re-read from the map. */
const VISIBLE_REFRESH_MS = 300;
/**
 * Least time (ms) between two diffs while nothing glides, for a clustered source (each diff re-clusters) or a
 * crowded view (each diff re-lays and re-uploads every marker in view).
 */
export const PACED_PUSH_GAP_MS = 250;
/** More markers than this drawn on their own in the viewport: none glides (nobody follows one dot among them). */
export const GLIDE_VIEW_LIMIT = 1000;
/**
 * Labels of a fleet this large show from LARGE_FLEET_LABEL_ZOOM up (where markers stand alone): thousands of
 * labels are mostly hidden by collisions anyway, yet their glyphs would be re-laid and re-uploaded on every update.
 */
export const LARGE_FLEET = 1000;
export const LARGE_FLEET_LABEL_ZOOM = CLUSTER_MAX_ZOOM;

export interface ControllerOptions {
  ns: string;
  statusText: (status: string) => string;
  onSelect: (deviceId: number) => void;
  /** The marker icons, fetched ahead (api/mapIcons.ts). */
  icons: Promise<Map<string, IconImage>>;
}

export class LiveMapController {
  /** Features currently in the source, by device id. */
  private features = new Map<number, DeviceFeature>();
  /** What each feature was built from (reference equality tells what changed). */
  private built = new Map<number, { d: Device; p: Position }>();
  private anims = new Map<number, Anim>();
  private raf = 0;
  /** Changes waiting for the next push (one merged diff per frame at most). */
  private pendingAdd = new Map<number, DeviceFeature>();
  private pendingRemove = new Set<number>();
  private lastPush = -Infinity;
  /** Devices drawn on their own in the viewport of a clustered map (null: not read yet). */
  private individual: Set<number> | null = null;
  private individualAt = -Infinity;
  /** More than GLIDE_VIEW_LIMIT markers are drawn on their own in the viewport (re-read with `individual`). */
  private crowded = false;
  private crowdedAt = -Infinity;
  /** Current zoom floor of the device labels. */
  private labelZoom = 0;
  private clustered: boolean | null = null;
  private pref: MapPref | null = null;
  private selectedId: number | null = null;
  private ready = false;
  /** Whether the text layers are shown (showLabels: the first frame with the vehicles is drawn). */
  labels = false;
  private geofences: readonly Geofence[] = [];
  private lastInputs: MapInputs | null = null;
  private trail: Array<[number, number]> = [];
  /** The centre-on-device flight under way (until its moveend) and the offset it flies to. */
  private focus: { position: Position; offset: [number, number] } | null = null;
  private readonly unwatchPanel: () => void;

  constructor(
    readonly map: MapLibreMap,
    private readonly opts: ControllerOptions,
  ) {
    map.on('style.load', () => void this.onStyle());
    if ((map.style as { _loaded?: boolean } | undefined)?._loaded) void this.onStyle(); // made early: earlyMap.ts
    map.on('click', 'rastro-devices-symbol', (e: MapLayerMouseEvent) => {
      const id = e.features?.[0]?.id;
      if (typeof id === 'number') opts.onSelect(id);
    });
    map.on('click', 'rastro-clusters', (e: MapLayerMouseEvent) => void this.expandCluster(e));
    map.on('moveend', () => {
      this.focus = null;
      this.individualAt = -Infinity;
      this.crowdedAt = -Infinity;
    });
    for (const layer of ['rastro-devices-symbol', 'rastro-clusters']) {
      map.on('mouseenter', layer, () => (map.getCanvas().style.cursor = 'pointer'));
      map.on('mouseleave', layer, () => (map.getCanvas().style.cursor = ''));
    }
    this.unwatchPanel = onPanelMoved(() => this.keepSelectedInView());
  }

  private async expandCluster(e: MapLayerMouseEvent): Promise<void> {
    const f = e.features?.[0];
    const clusterId = f?.properties?.cluster_id;
    const src = this.map.getSource<GeoJSONSource>(SRC_DEVICES);
    if (!src || typeof clusterId !== 'number' || f?.geometry.type !== 'Point') return;
    const zoom = await src.getClusterExpansionZoom(clusterId);
    this.map.easeTo({ center: f.geometry.coordinates as [number, number], zoom });
  }

  setStyle(style: StyleSpecification | string): void {
    this.ready = false;
    this.map.setStyle(style, { diff: false });
  }

  private async loadIcons(): Promise<void> {
    for (const [name, image] of await this.opts.icons)
      if (!this.map.hasImage(name)) this.map.addImage(name, image, { sdf: true, pixelRatio: 2 });
  }

  /** (Re)creates our sources and layers on top of whatever base style is loaded. */
  private async onStyle(): Promise<void> {
    await this.loadIcons();
    this.addGeofenceLayers();
    this.map.addSource(SRC_TRAIL, { type: 'geojson', data: this.trailData() });
    this.map.addLayer({
      id: 'rastro-trail',
      type: 'line',
      source: SRC_TRAIL,
      paint: { 'line-color': '#1565c0', 'line-width': 3, 'line-opacity': 0.8 },
    });
    this.clustered = null;
    this.ready = true;
    if (this.lastInputs) this.update(this.lastInputs, true);
    // the fences' names when no device source came (the devices' own come with their layers)
    if (this.labels) this.showLabels();
  }

  private addGeofenceLayers(): void {
    const { shapes, labels } = geofenceFeatures(this.geofences);
    this.map.addSource(SRC_GEOFENCES, { type: 'geojson', data: shapes });
    this.map.addSource(SRC_GEOFENCE_LABELS, { type: 'geojson', data: labels });
    for (const layer of geofenceLayers()) this.map.addLayer(layer);
  }

  setGeofences(geofences: readonly Geofence[]): void {
    this.geofences = geofences;
    if (!this.ready) return;
    const { shapes, labels } = geofenceFeatures(geofences);
    this.map.getSource<GeoJSONSource>(SRC_GEOFENCES)?.setData(shapes);
    this.map.getSource<GeoJSONSource>(SRC_GEOFENCE_LABELS)?.setData(labels);
  }

  /**
   * Adds the text layers (labels, fences' names, clusters' counts): called once the first markers are drawn, and
   * from then on they come with the layers (a style switch, clustering switched).
   */
  showLabels(): void {
    this.labels = true;
    if (!this.ready) return;
    addLabelLayers(this.map, !!this.clustered, this.labelZoom);
    if (this.pref) applyGeofenceVisibility(this.map, this.pref);
  }

  /** Device source + layers; recreated when clustering is switched. */
  private addDeviceLayers(clustered: boolean, data: GeoJSON.FeatureCollection): void {
    removeSources(this.map, SRC_DEVICES);
    addDeviceSource(this.map, SRC_DEVICES, data, clustered);
    if (this.labels) addLabelLayers(this.map, clustered, this.labelMinZoom(data.features.length));
  }

  private labelMinZoom(count: number): number {
    return count > LARGE_FLEET ? LARGE_FLEET_LABEL_ZOOM : 0;
  }

  /** Moves the labels' zoom floor when the drawn fleet crosses LARGE_FLEET. */
  private applyLabelZoom(): void {
    const min = this.labelMinZoom(this.features.size);
    if (min === this.labelZoom || !this.map.getLayer('rastro-devices-label')) return;
    this.labelZoom = min;
    this.map.setLayerZoomRange('rastro-devices-label', min, 24);
  }

  private collection(): GeoJSON.FeatureCollection {
    return { type: 'FeatureCollection', features: [...this.features.values()] };
  }

  private trailData(): GeoJSON.Feature {
    return { type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates: this.trail } };
  }

  /** Current drawn coordinates of a device (mid-animation included). */
  drawnPosition(id: number): [number, number] | undefined {
    return this.features.get(id)?.geometry.coordinates as [number, number] | undefined;
  }

  get featureCount(): number {
    return this.features.size;
  }

  /** Whether the style and our sources and layers are in (updates are drawn from then on). */
  get styled(): boolean {
    return this.ready;
  }

  /** Applies new store state: adds, removes and changes features; starts glides for moved markers. */
  update(inputs: MapInputs, force = false): void {
    this.lastInputs = inputs;
    if (!this.ready) return;
    const { devices, positions, mapPref } = inputs;
    const prefChanged = force || this.pref !== mapPref;
    const rebuild = this.clustered !== mapPref.clustered || !this.map.getSource(SRC_DEVICES);
    if (rebuild) {
      // rebuild everything into a new (un)clustered source
      this.features.clear();
      this.built.clear();
      this.anims.clear();
      this.pendingAdd.clear();
      this.pendingRemove.clear();
      this.individual = null;
    }
    const seen = new Set<number>();
    const now = performance.now();
    const glide = this.glideCheck(mapPref.clustered);
    for (const d of devices) {
      const p = positions[d.id];
      if (!p) continue;
      seen.add(d.id);
      const prev = this.built.get(d.id);
      if (!prefChanged && prev && prev.d === d && prev.p === p) continue;
      const old = this.features.get(d.id);
      const oldXY = old?.geometry.coordinates as [number, number] | undefined;
      const to: [number, number] = [p.longitude, p.latitude];
      let start = to;
      if (oldXY && (oldXY[0] !== to[0] || oldXY[1] !== to[1]) && prev && prev.p !== p) {
        if (this.anims.has(d.id) || glide(d.id, oldXY, to)) {
          start = oldXY;
          this.anims.set(d.id, { from: oldXY, to, start: now });
        } else this.anims.delete(d.id);
      } else if (this.anims.has(d.id)) {
        const a = this.anims.get(d.id)!;
        if (a.to[0] === to[0] && a.to[1] === to[1]) start = oldXY ?? to;
        else this.anims.delete(d.id);
      }
      const f = deviceFeature(d, p, mapPref, this.opts.ns, this.opts.statusText, start);
      this.features.set(d.id, f);
      this.built.set(d.id, { d, p });
      if (!rebuild) this.pendingAdd.set(d.id, f);
    }
    for (const id of this.features.keys()) {
      if (!seen.has(id)) {
        this.features.delete(id);
        this.built.delete(id);
        this.anims.delete(id);
        this.pendingAdd.delete(id);
        this.pendingRemove.add(id);
      }
    }
    if (rebuild) {
      this.clustered = mapPref.clustered;
      this.labelZoom = this.labelMinZoom(this.features.size);
      this.addDeviceLayers(mapPref.clustered, this.collection());
    } else {
      this.applyLabelZoom();
      this.flush(now);
    }
    if (prefChanged) {
      this.pref = mapPref;
      applyGeofenceVisibility(this.map, mapPref);
      this.map.setLayoutProperty('rastro-precision', 'visibility', mapPref.precision ? 'visible' : 'none');
    }
    if (force || this.selectedId !== inputs.selectedId) {
      this.selectedId = inputs.selectedId;
      this.map.setFilter('rastro-selected', ['==', ['id'], inputs.selectedId ?? -1] as never);
    }
    if (force || this.trail !== inputs.trail) {
      this.trail = inputs.trail;
      this.map.getSource<GeoJSONSource>(SRC_TRAIL)?.setData(this.trailData());
    }
    this.schedule();
  }

  /**
   * Whether a marker moving from `from` to `to` glides: a glide slot is free, the view is not crowded (see
   * GLIDE_VIEW_LIMIT), one end is in (or near) the viewport, and on a clustered map below the clusters' break-up
   * zoom it is drawn on its own, not in a cluster.
   */
  private glideCheck(
    clustered: boolean,
  ): (id: number, from: [number, number], to: [number, number]) => boolean {
    const m = this.map as Partial<MapLibreMap>;
    const b = m.getBounds?.();
    if (!b) return () => this.anims.size < MAX_GLIDES;
    const view = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()] as const;
    const padX = (view[2] - view[0]) * 0.1;
    const padY = (view[3] - view[1]) * 0.1;
    const [w, s, e, n] = [view[0] - padX, view[1] - padY, view[2] + padX, view[3] + padY];
    const inView = (p: [number, number]) => p[0] >= w && p[0] <= e && p[1] >= s && p[1] <= n;
    const clusters = clustered && (m.getZoom?.() ?? 0) <= CLUSTER_MAX_ZOOM;
    this.updateCrowded(clusters, view);
    if (this.crowded) return () => false;
    return (id, from, to) =>
      this.anims.size < MAX_GLIDES &&
      (inView(from) || inView(to)) &&
      (!clusters || this.individualIds().has(id));
  }

  /** Re-counts (at most every 300 ms) the markers drawn on their own in the viewport. */
  private updateCrowded(clusters: boolean, [w, s, e, n]: readonly [number, number, number, number]): void {
    const now = performance.now();
    if (now - this.crowdedAt < VISIBLE_REFRESH_MS) return;
    // an empty source (first load) is not worth remembering: count again on the next update
    if (this.features.size) this.crowdedAt = now;
    let count = 0;
    if (clusters) count = this.individualIds().size;
    else
      for (const f of this.features.values()) {
        const [x, y] = f.geometry.coordinates;
        if (x >= w && x <= e && y >= s && y <= n && ++count > GLIDE_VIEW_LIMIT) break;
      }
    this.crowded = count > GLIDE_VIEW_LIMIT;
  }

  /** Devices drawn on their own (not in a cluster) in the viewport, re-read at most every 300 ms. */
  private individualIds(): ReadonlySet<number> {
    const now = performance.now();
    if (this.individual && now - this.individualAt < VISIBLE_REFRESH_MS) return this.individual;
    const ids = new Set<number>();
    const m = this.map as Partial<MapLibreMap>;
    if (!m.queryRenderedFeatures || !this.map.getLayer('rastro-devices-symbol')) return ids;
    for (const f of m.queryRenderedFeatures({ layers: ['rastro-devices-symbol'] }))
      if (typeof f.id === 'number') ids.add(f.id);
    this.individual = ids;
    this.individualAt = now;
    return ids;
  }

  private schedule(): void {
    if (!this.raf && (this.anims.size || this.pendingAdd.size || this.pendingRemove.size))
      this.raf = requestAnimationFrame((t) => this.frame(t));
  }

  /**
   * Sends what waits as one diff. An unclustered source with an uncrowded view takes it at once; a clustered one
   * re-clusters on every diff and a crowded view re-lays every marker, so while nothing glides their diffs are
   * spaced by PACED_PUSH_GAP_MS (frame() sends what waits).
   */
  private flush(now: number, update: Array<{ id: number; newGeometry: GeoJSON.Point }> = []): void {
    const src = this.map.getSource<GeoJSONSource>(SRC_DEVICES);
    if (!src) return;
    const waiting = this.pendingAdd.size + this.pendingRemove.size;
    if (!waiting && !update.length) return;
    const paced = this.clustered || this.crowded;
    if (paced && !update.length && now - this.lastPush < PACED_PUSH_GAP_MS) return;
    const diff = {
      add: [...this.pendingAdd.values()],
      remove: [...this.pendingRemove],
      // a feature re-added in this diff already carries its new geometry
      update: update.filter((u) => !this.pendingAdd.has(u.id)),
    };
    this.pendingAdd.clear();
    this.pendingRemove.clear();
    this.lastPush = now;
    src.updateData(diff).catch(() => void src.setData(this.collection()));
  }

  private frame(now: number): void {
    this.raf = 0;
    const update: Array<{ id: number; newGeometry: GeoJSON.Point }> = [];
    for (const [id, a] of this.anims) {
      const t = Math.min(1, (now - a.start) / MARKER_MOVE_MS);
      const k = ease(Math.max(0, t));
      const xy: [number, number] = [lerp(a.from[0], a.to[0], k), lerp(a.from[1], a.to[1], k)];
      const f = this.features.get(id);
      if (f) {
        f.geometry = { type: 'Point', coordinates: xy };
        update.push({ id, newGeometry: f.geometry });
      }
      if (t >= 1 || !f) this.anims.delete(id);
    }
    this.flush(now, update);
    this.schedule();
  }

  /** Centre on a device: zoom 18 in a 1.5 s flight (SPEC §9), in the middle of what the panel leaves visible. */
  flyTo(position: Position): void {
    const offset = visibleOffset(this.map);
    this.map.flyTo({ ...centerOnDevice(position), offset, essential: true });
    this.focus = { position, offset }; // after flyTo: the flight it interrupts ends with a moveend
  }

  /**
   * The panel moved (issue #29: on a phone the list becomes the detail sheet after the flight started, or a marker
   * tapped on the map gets the sheet over it): a flight under way re-aims at the new visible part, and a selected
   * vehicle left under the panel glides to the middle of that part.
   */
  keepSelectedInView(): void {
    if (this.focus) {
      const [x, y] = visibleOffset(this.map);
      if (x !== this.focus.offset[0] || y !== this.focus.offset[1]) this.flyTo(this.focus.position);
      return;
    }
    const p = this.selectedId === null ? undefined : this.lastInputs?.positions[this.selectedId];
    if (!p || !underPanel(this.map, [p.longitude, p.latitude])) return;
    this.map.easeTo({ center: [p.longitude, p.latitude], offset: visibleOffset(this.map), duration: 300 });
  }

  /** Trail mode: keep the followed device in view without changing the zoom. */
  follow(position: Position): void {
    this.map.easeTo({ center: [position.longitude, position.latitude], duration: MARKER_MOVE_MS });
  }

  destroy(): void {
    this.unwatchPanel();
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
  }
}
