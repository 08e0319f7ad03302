// The live map's layer specifications (sources are the controller's): geofences and anchors, devices with their
// precision circles, selection ring, icons, labels and clusters. Pure data, so the controller only adds them.
import type { LayerSpecification } from 'maplibre-gl';

export const SRC_DEVICES = 'rastro-devices';
export const SRC_GEOFENCES = 'rastro-geofences';
export const SRC_GEOFENCE_LABELS = 'rastro-geofence-labels';
export const FONT = ['Noto Sans Regular'];

/**
 * Normal fences (fill, line), anchors apart (their own layers, dashed ring above normal fences), then names. The
 * fills draw no antialiased outline of their own (their line layers draw it): one WebGL program fewer to compile
 * before the first map (300–600 ms of program compiles under software rendering, bench/results/map.md).
 */
export function geofenceLayers(): LayerSpecification[] {
  const normal = ['!', ['get', 'anchor']];
  const anchor = ['get', 'anchor'];
  return [
    {
      id: 'rastro-geofences-fill',
      type: 'fill',
      source: SRC_GEOFENCES,
      filter: ['all', normal, ['==', ['geometry-type'], 'Polygon']] as never,
      paint: { 'fill-color': ['get', 'color'], 'fill-opacity': 0.12, 'fill-antialias': false },
    },
    {
      id: 'rastro-geofences-line',
      type: 'line',
      source: SRC_GEOFENCES,
      filter: normal as never,
      paint: { 'line-color': ['get', 'color'], 'line-width': 2 },
    },
    {
      id: 'rastro-anchors-fill',
      type: 'fill',
      source: SRC_GEOFENCES,
      filter: anchor as never,
      paint: { 'fill-color': ['get', 'color'], 'fill-opacity': 0.08, 'fill-antialias': false },
    },
    {
      id: 'rastro-anchors-line',
      type: 'line',
      source: SRC_GEOFENCES,
      filter: anchor as never,
      paint: { 'line-color': ['get', 'color'], 'line-width': 2, 'line-dasharray': [2, 2] },
    },
    {
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
  ] as LayerSpecification[];
}

/** Device layers, bottom to top; the cluster layers only when `clustered`. Labels start at `labelMinZoom`. */
export function deviceLayers(clustered: boolean, labelMinZoom: number): LayerSpecification[] {
  const out: LayerSpecification[] = [];
  const notCluster = ['!', ['has', 'point_count']] as never;
  out.push({
    id: 'rastro-precision',
    type: 'circle',
    source: SRC_DEVICES,
    filter: ['all', ['!', ['has', 'point_count']], ['>', ['get', 'accuracy'], 0]] as never,
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
  });
  out.push({
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
  });
  out.push({
    id: 'rastro-devices-symbol',
    type: 'symbol',
    source: SRC_DEVICES,
    filter: notCluster,
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
  });
  // labels apart from icons, so a large fleet can show them only when zoomed in (see LARGE_FLEET)
  out.push({
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
  });
  if (clustered) {
    out.push({
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
    });
    out.push({
      id: 'rastro-cluster-count',
      type: 'symbol',
      source: SRC_DEVICES,
      filter: ['has', 'point_count'] as never,
      layout: { 'text-field': ['get', 'point_count_abbreviated'], 'text-font': FONT, 'text-size': 12 },
      paint: { 'text-color': '#ffffff' },
    });
  }
  return out;
}
