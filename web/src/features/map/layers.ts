// The live map's layer specifications (sources are the controller's): geofences and anchors, devices with their
// precision circles, selection ring, icons, labels and clusters; the labels are added apart, after the markers.
import type { LayerSpecification, Map as MapLibreMap } from 'maplibre-gl';
import type { MapPref } from '@rastro/domain';

export const SRC_DEVICES = 'rastro-devices';
export const SRC_GEOFENCES = 'rastro-geofences';
export const SRC_GEOFENCE_LABELS = 'rastro-geofence-labels';
export const FONT = ['Noto Sans Regular'];
type FC = GeoJSON.FeatureCollection;
/** Clusters break apart above this zoom (the device source's clusterMaxZoom). */
export const CLUSTER_MAX_ZOOM = 14;

/**
 * Normal fences (fill, line), anchors apart (their own layers, dashed ring above normal fences); their names are
 * among the labels (labelLayers). The
 * fills draw no antialiased outline of their own (their line layers draw it): one WebGL program fewer to compile
 * before the first map (300–600 ms of program compiles under software rendering, bench/results/map.md).
 */
export function geofenceLayers(): LayerSpecification[] {
  const normal = ['!', ['get', 'anchor']] as never;
  const anchor = ['get', 'anchor'] as never;
  const polygons = ['all', normal, ['==', ['geometry-type'], 'Polygon']] as never;
  const kinds = [
    { id: 'geofences', filter: normal, fillFilter: polygons, fill: 0.12, dash: {} },
    { id: 'anchors', filter: anchor, fillFilter: anchor, fill: 0.08, dash: { 'line-dasharray': [2, 2] } },
  ];
  return kinds.flatMap(({ id, filter, fillFilter, fill, dash }): LayerSpecification[] => [
    {
      id: `rastro-${id}-fill`,
      type: 'fill',
      source: SRC_GEOFENCES,
      filter: fillFilter,
      paint: { 'fill-color': ['get', 'color'], 'fill-opacity': fill, 'fill-antialias': false },
    },
    {
      id: `rastro-${id}-line`,
      type: 'line',
      source: SRC_GEOFENCES,
      filter,
      paint: { 'line-color': ['get', 'color'], 'line-width': 2, ...dash },
    },
  ]);
}

/** Device layers, bottom to top, without their texts (labelLayers); the cluster circles only when `clustered`. */
function deviceLayers(clustered: boolean): LayerSpecification[] {
  const notCluster = ['!', ['has', 'point_count']];
  const precision: LayerSpecification = {
    id: 'rastro-precision',
    type: 'circle',
    source: SRC_DEVICES,
    filter: ['all', notCluster, ['>', ['get', 'accuracy'], 0]] as never,
    paint: {
      'circle-radius': [
        'interpolate',
        ['exponential', 2],
        ['zoom'],
        0,
        ['/', ['get', 'accuracy'], ['get', 'mpp0']],
        22,
        ['/', ['*', ['get', 'accuracy'], 4194304], ['get', 'mpp0']],
      ] as never,
      'circle-color': ['get', 'color'],
      'circle-opacity': 0.12,
      'circle-stroke-color': ['get', 'color'],
      'circle-stroke-width': 1,
      'circle-stroke-opacity': 0.4,
    },
  };
  const selected: LayerSpecification = {
    id: 'rastro-selected',
    type: 'circle',
    source: SRC_DEVICES,
    filter: ['==', ['id'], -1] as never,
    paint: {
      'circle-radius': 20,
      'circle-color': 'rgba(0,0,0,0)',
      'circle-stroke-color': '#ff9800',
      'circle-stroke-width': 3,
    },
  };
  const symbol: LayerSpecification = {
    id: 'rastro-devices-symbol',
    type: 'symbol',
    source: SRC_DEVICES,
    filter: notCluster as never,
    layout: {
      'icon-image': ['get', 'icon'],
      'icon-size': 1.2,
      'icon-rotate': ['get', 'course'],
      'icon-rotation-alignment': 'map',
      'icon-allow-overlap': true,
      'icon-ignore-placement': true,
    },
    paint: {
      'icon-color': ['get', 'color'],
      'icon-halo-color': '#ffffff',
      'icon-halo-width': 1.5,
    },
  };
  const clusters: LayerSpecification = {
    id: 'rastro-clusters',
    type: 'circle',
    source: SRC_DEVICES,
    filter: ['has', 'point_count'] as never,
    paint: {
      'circle-color': '#1565c0',
      'circle-opacity': 0.85,
      'circle-radius': ['step', ['get', 'point_count'], 16, 10, 20, 100, 26, 1000, 32] as never,
      'circle-stroke-color': '#fff',
      'circle-stroke-width': 2,
    },
  };
  return clustered ? [precision, selected, symbol, clusters] : [precision, selected, symbol];
}

/** A device source and its layers (the early map's warm frame's under ids starting with `prefix`). */
export function addDeviceSource(map: MapLibreMap, id: string, data: FC, clustered: boolean, prefix = '') {
  const cluster = { cluster: clustered, clusterMaxZoom: CLUSTER_MAX_ZOOM, clusterRadius: 50 };
  map.addSource(id, { type: 'geojson', data, ...cluster });
  for (const layer of deviceLayers(clustered))
    map.addLayer({ ...layer, id: prefix + layer.id, source: id } as LayerSpecification);
}

/** A label layer and the layer it goes below (undefined: on top). */
interface LabelLayer {
  layer: LayerSpecification;
  before?: string;
}

/**
 * The text layers: the fences' names, the devices' labels (from `labelMinZoom`) and the clusters' counts. They come
 * after the markers are drawn (the controller's showLabels): text needs glyphs, which the worker asks of the main
 * thread while it lays out a tile, and on the first load those answers waited between long tasks before the first
 * markers could show (bench/RESULTS.md, session 22). Each goes where it stood among the other layers.
 */
function labelLayers(clustered: boolean, labelMinZoom: number): LabelLayer[] {
  const anchor = ['get', 'anchor'];
  const out: LabelLayer[] = [
    {
      before: 'rastro-trail',
      layer: {
        id: 'rastro-geofences-label',
        type: 'symbol',
        source: SRC_GEOFENCE_LABELS,
        layout: {
          'text-field': ['get', 'name'],
          'text-font': FONT,
          'text-size': 12,
          // anchors' names hang below their centre so they never sit on a normal fence's name
          'text-offset': ['case', anchor, ['literal', [0, 1.2]], ['literal', [0, 0]]] as never,
        },
        paint: { 'text-color': ['get', 'color'], 'text-halo-color': '#fff', 'text-halo-width': 1.5 },
      },
    },
    // labels apart from icons, so a large fleet can show them only when zoomed in (see LARGE_FLEET)
    {
      before: clustered ? 'rastro-clusters' : undefined,
      layer: {
        id: 'rastro-devices-label',
        type: 'symbol',
        source: SRC_DEVICES,
        filter: ['all', ['!', ['has', 'point_count']], ['!=', ['get', 'label'], '']] as never,
        minzoom: labelMinZoom,
        layout: {
          'text-field': ['get', 'label'],
          'text-font': FONT,
          'text-size': 12,
          'text-anchor': 'top',
          'text-offset': [0, 1.3],
          'text-optional': true,
        },
        paint: {
          'text-color': '#212121',
          'text-halo-color': '#ffffff',
          'text-halo-width': 1.5,
        },
      },
    },
  ];
  if (clustered)
    out.push({
      layer: {
        id: 'rastro-cluster-count',
        type: 'symbol',
        source: SRC_DEVICES,
        filter: ['has', 'point_count'] as never,
        layout: { 'text-field': ['get', 'point_count_abbreviated'], 'text-font': FONT, 'text-size': 12 },
        paint: { 'text-color': '#ffffff' },
      },
    });
  return out;
}

/** The text layers' specifications alone, labels from zoom 0 (the early map's warm frame, earlyMap.ts). */
export function labelLayerSpecs(clustered: boolean): LayerSpecification[] {
  return labelLayers(clustered, 0).map(({ layer }) => layer);
}

/** Adds the label layers that are missing (those of a source not there yet wait for the next call). */
export function addLabelLayers(map: MapLibreMap, clustered: boolean, labelMinZoom: number): void {
  for (const { layer, before } of labelLayers(clustered, labelMinZoom)) {
    if (map.getLayer(layer.id) || !('source' in layer) || !map.getSource(layer.source as string)) continue;
    map.addLayer(layer, before && map.getLayer(before) ? before : undefined);
  }
}

/** Shows or hides the fences and their names as the preferences say. */
export function applyGeofenceVisibility(map: MapLibreMap, pref: MapPref): void {
  const vis = (on: boolean) => (on ? 'visible' : 'none');
  for (const { id } of geofenceLayers())
    if (map.getLayer(id)) map.setLayoutProperty(id, 'visibility', vis(pref.showGeofences));
  if (map.getLayer('rastro-geofences-label'))
    map.setLayoutProperty(
      'rastro-geofences-label',
      'visibility',
      vis(pref.showGeofences && pref.geofenceNames),
    );
}
