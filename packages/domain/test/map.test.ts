import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAP_PREF,
  MAP_ICON_TYPES,
  MAP_ICON_SPRITE,
  spriteCell,
  spriteSize,
  centerOnDevice,
  fitView,
  FIT_MARKER_MARGIN,
  FIT_MAX_ZOOM,
  initialView,
  initialZoom,
  overlayPadding,
  isValidLatitude,
  isValidLongitude,
  parseMapPref,
  resolveMapIcon,
  statusColor,
  STATUS_COLORS,
  MARKER_MOVE_MS,
} from '../src/map.ts';
import { deviceColor } from '../src/filters.ts';
import { device, position } from './fixtures.ts';

/** Screen px of a point in a view (Web Mercator, 512 px tiles, as MapLibre draws), from the viewport's top left. */
function screen(
  p: { latitude: number; longitude: number },
  view: { center: { latitude: number; longitude: number }; zoom: number },
  vp: { width: number; height: number },
): [number, number] {
  const world = 512 * 2 ** view.zoom;
  const x = (lon: number) => ((lon + 180) / 360) * world;
  const y = (lat: number) => {
    const phi = (lat * Math.PI) / 180;
    return ((1 - Math.log(Math.tan(Math.PI / 4 + phi / 2)) / Math.PI) / 2) * world;
  };
  return [
    vp.width / 2 + x(p.longitude) - x(view.center.longitude),
    vp.height / 2 + y(p.latitude) - y(view.center.latitude),
  ];
}

describe('first map fit (issue #28)', () => {
  const vp = { width: 1000, height: 600 };

  it('one point: centred at the maximum zoom', () => {
    const b = { south: -23.5, north: -23.5, west: -46.6, east: -46.6 };
    const v = fitView(b, vp);
    expect(v.zoom).toBe(FIT_MAX_ZOOM);
    expect(v.center.latitude).toBeCloseTo(-23.5, 9);
    expect(v.center.longitude).toBeCloseTo(-46.6, 9);
    expect(fitView(b, vp, 12).zoom).toBe(12);
  });

  it('one point with padding: in the middle of the area the panels leave', () => {
    const b = { south: 10, north: 10, west: 20, east: 20 };
    const padded = { ...vp, padding: { left: 400, bottom: 200 } };
    const v = fitView(b, padded);
    const [x, y] = screen({ latitude: 10, longitude: 20 }, v, padded);
    expect(x).toBeCloseTo(400 + 600 / 2, 6);
    expect(y).toBeCloseTo(400 / 2, 6);
  });

  it('points at the same place: as one point', () => {
    const pts = [
      { latitude: -15.8, longitude: -47.9 },
      { latitude: -15.8, longitude: -47.9 },
    ];
    const v = initialView(null, null, pts, vp);
    expect(v.kind).toBe('fit');
    expect(v.zoom).toBe(FIT_MAX_ZOOM);
    const [x, y] = screen(pts[0], v, vp);
    const m = FIT_MARKER_MARGIN;
    expect(x).toBeCloseTo(m.left + (1000 - m.left - m.right) / 2, 6);
    expect(y).toBeCloseTo(m.top + (600 - m.top - m.bottom) / 2, 6);
  });

  it('many points: all inside, and the tighter axis touches its padded edges', () => {
    const b = { south: -30, north: 5, west: -70, east: -35 };
    const padded = { ...vp, padding: { top: 10, right: 20, bottom: 30, left: 40 } };
    const v = fitView(b, padded);
    expect(v.zoom).toBeLessThan(FIT_MAX_ZOOM);
    const [xw, yn] = screen({ latitude: b.north, longitude: b.west }, v, padded);
    const [xe, ys] = screen({ latitude: b.south, longitude: b.east }, v, padded);
    expect(xw).toBeGreaterThanOrEqual(40 - 1e-6);
    expect(xe).toBeLessThanOrEqual(1000 - 20 + 1e-6);
    // this box is taller than wide on screen: top and bottom touch
    expect(yn).toBeCloseTo(10, 6);
    expect(ys).toBeCloseTo(600 - 30, 6);
  });

  it('a close cluster stops at the maximum zoom', () => {
    const v = fitView({ south: -23.5501, north: -23.55, west: -46.6301, east: -46.63 }, vp);
    expect(v.zoom).toBe(FIT_MAX_ZOOM);
  });

  it('padding wider than the map is dropped on that axis', () => {
    const v = fitView(
      { south: 1, north: 1, west: 1, east: 1 },
      { width: 300, height: 300, padding: { left: 400 } },
    );
    expect(v.center.longitude).toBeCloseTo(1, 9);
  });

  it('no points: the SPEC §5 centre, not a fit', () => {
    expect(initialView(null, { latitude: -23.5, longitude: -46.6, zoom: 12 }, [], vp)).toEqual({
      kind: 'center',
      source: 'server',
      center: { latitude: -23.5, longitude: -46.6 },
      zoom: 12,
    });
  });

  it('overlay padding: side panel, bottom sheet, full cover, none', () => {
    const map = { left: 64, top: 56, right: 1280, bottom: 800 };
    expect(overlayPadding(map, null)).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
    expect(overlayPadding(map, { left: 64, top: 56, right: 484, bottom: 800 })).toMatchObject({ left: 420 });
    expect(overlayPadding(map, { left: 64, top: 400, right: 1280, bottom: 800 })).toMatchObject({
      bottom: 400,
    });
    expect(overlayPadding(map, map)).toEqual({ top: 0, right: 0, bottom: 0, left: 0 });
    expect(overlayPadding(map, { left: 0, top: 0, right: 10, bottom: 10 })).toEqual({
      top: 0,
      right: 0,
      bottom: 0,
      left: 0,
    });
  });
});

describe('map centring (SPEC §5)', () => {
  it('validates coordinates: not NaN, not 0, in range (both sides)', () => {
    expect(isValidLatitude(90)).toBe(true);
    expect(isValidLatitude(-90)).toBe(true);
    expect(isValidLatitude(90.0001)).toBe(false);
    expect(isValidLatitude(-90.0001)).toBe(false);
    expect(isValidLatitude(0)).toBe(false);
    expect(isValidLatitude(NaN)).toBe(false);
    expect(isValidLongitude(180)).toBe(true);
    expect(isValidLongitude(-180)).toBe(true);
    expect(isValidLongitude(180.0001)).toBe(false);
    expect(isValidLongitude(0)).toBe(false);
  });

  it('without positions: the user only if both coordinates are valid, then the server, then 0,0', () => {
    const server = { latitude: -23.5, longitude: -46.6, zoom: 12 };
    const vp = { width: 800, height: 600 };
    expect(initialView({ latitude: 10, longitude: 20, zoom: 5 }, server, [], vp)).toEqual({
      kind: 'center',
      source: 'user',
      center: { latitude: 10, longitude: 20 },
      zoom: 5,
    });
    expect(initialView({ latitude: 10, longitude: 0 }, server, [], vp)).toMatchObject({
      source: 'server',
      center: { latitude: -23.5, longitude: -46.6 },
      zoom: 12,
    });
    expect(initialView({ latitude: 91, longitude: 20 }, server, [], vp)).toMatchObject({ source: 'server' });
    // invalid points count as none
    expect(initialView(undefined, undefined, [{ latitude: NaN, longitude: 1 }], vp)).toEqual({
      kind: 'center',
      source: 'default',
      center: { latitude: 0, longitude: 0 },
      zoom: 17,
    });
  });

  it('with positions: fitted to them, whatever the user and server centres say', () => {
    const user = { latitude: -23.55, longitude: -46.63, zoom: 12 };
    const pts = [
      { latitude: -3.1, longitude: -60.0 },
      { latitude: -30.0, longitude: -51.2 },
      { latitude: -8.05, longitude: -34.9 },
    ];
    const vp = { width: 1280, height: 760, padding: { left: 420 } };
    const v = initialView(user, user, pts, vp);
    expect(v).toMatchObject({
      kind: 'fit',
      source: 'devices',
      bounds: { south: -30, north: -3.1, west: -60, east: -34.9 },
    });
    // every point inside the panel-free area, with the marker margin kept
    const m = FIT_MARKER_MARGIN;
    for (const p of pts) {
      const [x, y] = screen(p, v, vp);
      expect(x).toBeGreaterThanOrEqual(420 + m.left - 0.5);
      expect(x).toBeLessThanOrEqual(1280 - m.right + 0.5);
      expect(y).toBeGreaterThanOrEqual(m.top - 0.5);
      expect(y).toBeLessThanOrEqual(760 - m.bottom + 0.5);
    }
  });

  it('zoom user → server → 17', () => {
    expect(initialZoom({ zoom: 4 }, { zoom: 9 })).toBe(4);
    expect(initialZoom({ zoom: 0 }, { zoom: 9 })).toBe(9);
    expect(initialZoom(null, { zoom: 0 })).toBe(17);
  });

  it('centre on device: zoom 18, 1500 ms; marker move 500 ms', () => {
    expect(centerOnDevice({ latitude: 1, longitude: 2 })).toEqual({
      center: [2, 1],
      zoom: 18,
      duration: 1500,
    });
    expect(MARKER_MOVE_MS).toBe(500);
  });
});

describe('icons, colours, prefs', () => {
  it('has the 24 icon types', () => {
    expect(MAP_ICON_TYPES).toHaveLength(24);
    expect(MAP_ICON_TYPES[0]).toBe('default');
    expect(MAP_ICON_TYPES[23]).toBe('offroad');
    expect(resolveMapIcon('tram')).toBe('tram');
    expect(resolveMapIcon('rocket')).toBe('default');
  });
  it('status colours', () => {
    expect(statusColor('online')).toBe(STATUS_COLORS.online);
    expect(statusColor('online', true)).toBe(STATUS_COLORS.moving);
    expect(statusColor('offline', true)).toBe(STATUS_COLORS.offline);
    expect(statusColor('unknown')).toBe(STATUS_COLORS.unknown);
  });
  it('device colour (map marker and list row): {ns}.color wins when it is a hex colour, else the status colour', () => {
    expect(deviceColor(device(1), position(1), 'rastro')).toBe(STATUS_COLORS.online);
    expect(deviceColor(device(1), position(1, { motion: true }), 'rastro')).toBe(STATUS_COLORS.moving);
    expect(deviceColor(device(1, { status: 'offline' }), position(1), 'rastro')).toBe(STATUS_COLORS.offline);
    expect(deviceColor(device(1, { status: 'unknown' }), undefined, 'rastro')).toBe(STATUS_COLORS.unknown);
    expect(deviceColor(device(1, {}, { 'rastro.color': 'ff0000' }), position(1), 'rastro')).toBe('#ff0000');
    expect(deviceColor(device(1, {}, { 'rastro.color': '#ff000080' }), position(1), 'rastro')).toBe(
      '#ff000080',
    );
    expect(deviceColor(device(1, {}, { 'rastro.color': 'not a colour' }), position(1), 'rastro')).toBe(
      STATUS_COLORS.online,
    );
  });
  it('mapPref defaults: clustered on, geofences shown', () => {
    expect(DEFAULT_MAP_PREF.clustered).toBe(true);
    expect(DEFAULT_MAP_PREF.showGeofences).toBe(true);
    expect(parseMapPref('{"clustered":false,"plate":true,"name":"x"}')).toEqual({
      ...DEFAULT_MAP_PREF,
      clustered: false,
      plate: true,
    });
    expect(parseMapPref('not json')).toEqual(DEFAULT_MAP_PREF);
    expect(parseMapPref(null)).toEqual(DEFAULT_MAP_PREF);
  });
});

describe('marker icon sprite (issue #13: one image instead of 24)', () => {
  it('places the icons in MAP_ICON_TYPES order, six 64 px cells to a row', () => {
    expect(MAP_ICON_SPRITE).toEqual({ size: 64, columns: 6 });
    expect(spriteCell('default')).toEqual({ x: 0, y: 0 });
    expect(spriteCell('motorcycle')).toEqual({ x: 320, y: 0 });
    expect(spriteCell('scooter')).toEqual({ x: 0, y: 64 });
    expect(spriteCell('offroad')).toEqual({ x: 320, y: 192 });
    expect(spriteSize()).toEqual({ width: 384, height: 256 });
    const cells = new Set(MAP_ICON_TYPES.map((t) => JSON.stringify(spriteCell(t))));
    expect(cells.size).toBe(MAP_ICON_TYPES.length);
  });
});
