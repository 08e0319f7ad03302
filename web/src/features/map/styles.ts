// Base map styles to choose from. The app's own GeoJSON layers are added on top of any of them.
// 'offline' draws no tiles at all (tests and air-gapped installs).
import type { StyleSpecification } from 'maplibre-gl';
import type { Server } from '@rastro/domain';

export interface MapStyleOption {
  id: string;
  /** i18n key in the map namespace */
  label: string;
  style: StyleSpecification | string;
}

const GLYPHS = 'https://demotiles.maplibre.org/font/{fontstack}/{range}.pbf';

function raster(tiles: string[], attribution: string, maxzoom = 19): StyleSpecification {
  return {
    version: 8,
    sources: { base: { type: 'raster', tiles, tileSize: 256, attribution, maxzoom } },
    glyphs: GLYPHS,
    layers: [{ id: 'base', type: 'raster', source: 'base' }],
  };
}

/** No tiles, no glyph downloads: labels use the locally rendered font (see layers.ts textFont). */
export const OFFLINE_STYLE: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#e8eef2' } }],
};

const OSM = '© <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>';
const CARTO = `${OSM} © <a href="https://carto.com/attributions">CARTO</a>`;

/** Keys of the two kinds SPEC §3 mentions: a Google key ({ns}.googleKey / googleKey) and Bing (server.bingKey). */
export function mapKeys(server: Server | null, ns: string): { google?: string; bing?: string } {
  const a = server?.attributes ?? {};
  const key = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
  return {
    google: key(a[`${ns}.googleKey`] ?? a.googleKey ?? a[`${ns}.mapsKey`]),
    bing: key(server?.bingKey),
  };
}

/** CARTO's light or dark raster tiles. */
const carto = (kind: 'light' | 'dark') =>
  raster(
    ['a', 'b', 'c', 'd'].map((s) => `https://${s}.basemaps.cartocdn.com/${kind}_all/{z}/{x}/{y}.png`),
    CARTO,
    20,
  );

/** Google's road (m) or satellite with labels (y) tiles with the server's key. */
const google = (layer: 'm' | 'y', key: string) =>
  raster(
    [0, 1, 2, 3].map((n) => `https://mt${n}.google.com/vt/lyrs=${layer}&x={x}&y={y}&z={z}&key=${key}`),
    '© Google',
    21,
  );

export function mapStyles(server: Server | null, ns: string): MapStyleOption[] {
  const list: MapStyleOption[] = [
    { id: 'osm', label: 'styleOsm', style: raster(['https://tile.openstreetmap.org/{z}/{x}/{y}.png'], OSM) },
    { id: 'light', label: 'styleLight', style: carto('light') },
    { id: 'dark', label: 'styleDark', style: carto('dark') },
    { id: 'vector', label: 'styleVector', style: 'https://tiles.openfreemap.org/styles/liberty' },
  ];
  const keys = mapKeys(server, ns);
  if (keys.google) {
    const k = encodeURIComponent(keys.google);
    list.push(
      { id: 'google-road', label: 'styleGoogleRoad', style: google('m', k) },
      { id: 'google-satellite', label: 'styleGoogleSatellite', style: google('y', k) },
    );
  }
  if (keys.bing) {
    const k = encodeURIComponent(keys.bing);
    list.push({
      id: 'bing-aerial',
      label: 'styleBingAerial',
      style: raster(
        [0, 1, 2, 3].map(
          (n) => `https://ecn.t${n}.tiles.virtualearth.net/tiles/a{quadkey}.jpeg?g=1&key=${k}`,
        ),
        '© Microsoft',
      ),
    });
  }
  list.push({ id: 'offline', label: 'styleOffline', style: OFFLINE_STYLE });
  return list;
}

/** The chosen style, or the default (OpenStreetMap) when the stored choice is unknown or unavailable. */
export function resolveStyle(options: MapStyleOption[], chosen: string): MapStyleOption {
  return options.find((o) => o.id === chosen) ?? options[0];
}
