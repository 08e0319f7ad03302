import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAP_PREF,
  MAP_ICON_TYPES,
  MAP_ICON_SPRITE,
  spriteCell,
  spriteSize,
  centerOnDevice,
  initialView,
  initialZoom,
  isValidLatitude,
  isValidLongitude,
  parseMapPref,
  resolveMapIcon,
  statusColor,
  STATUS_COLORS,
  MARKER_MOVE_MS,
} from '../src/map.ts';

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

  it('uses the user only if both coordinates are valid, then server, then bounds, then 0,0', () => {
    const server = { latitude: -23.5, longitude: -46.6, zoom: 12 };
    expect(initialView({ latitude: 10, longitude: 20, zoom: 5 }, server)).toEqual({
      kind: 'center',
      source: 'user',
      center: { latitude: 10, longitude: 20 },
      zoom: 5,
    });
    expect(initialView({ latitude: 10, longitude: 0 }, server)).toMatchObject({ source: 'server', zoom: 12 });
    expect(initialView({ latitude: 91, longitude: 20 }, server)).toMatchObject({ source: 'server' });
    const v = initialView(null, { latitude: 0, longitude: 0 }, [
      { latitude: -10, longitude: -20 },
      { latitude: 10, longitude: 40 },
      { latitude: NaN, longitude: 1 },
    ]);
    expect(v).toMatchObject({
      kind: 'bounds',
      bounds: { south: -10, north: 10, west: -20, east: 40 },
      zoom: 17,
    });
    expect(v.center).toEqual({ latitude: 0, longitude: 10 });
    expect(initialView(undefined, undefined, [])).toEqual({
      kind: 'center',
      source: 'default',
      center: { latitude: 0, longitude: 0 },
      zoom: 17,
    });
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
