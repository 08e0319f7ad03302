/// <reference types="geojson" />
import { describe, expect, it } from 'vitest';
import {
  anchoredDeviceIds,
  DEFAULT_MAP_PREF,
  type Device,
  type Geofence,
  type Position,
} from '@rastro/domain';
import { deviceFeature, geofenceFeatures, markerLabel } from './features.ts';
import { mapKeys, mapStyles, resolveStyle, OFFLINE_STYLE } from './styles.ts';

const dev = (p: Partial<Device> = {}) =>
  ({
    id: 1,
    name: 'Truck 1',
    uniqueId: 'u1',
    status: 'online',
    category: 'truck',
    attributes: {},
    ...p,
  }) as Device;
const pos = (attributes: Position['attributes'] = {}, p: Partial<Position> = {}) =>
  ({
    id: 9,
    deviceId: 1,
    latitude: -23.5,
    longitude: -46.6,
    course: 90,
    accuracy: 0,
    attributes,
    ...p,
  }) as Position;

describe('marker features', () => {
  it('labels follow mapPref name / plate (placa or plate) / status', () => {
    const d = dev({ attributes: { placa: 'ABC1D23' } });
    const st = (s: string) => `<${s}>`;
    expect(markerLabel(d, { name: true, plate: false, status: false }, st)).toBe('Truck 1');
    expect(markerLabel(d, { name: true, plate: true, status: true }, st)).toBe('Truck 1\nABC1D23\n<online>');
    expect(
      markerLabel(dev({ attributes: { plate: 'XYZ' } }), { name: false, plate: true, status: false }, st),
    ).toBe('XYZ');
  });

  it('builds one point feature per device: id, icon type (fallback default), course, precision', () => {
    const f = deviceFeature(dev(), pos({}, { accuracy: 30 }), DEFAULT_MAP_PREF, 'rastro', (s) => s);
    expect(f.id).toBe(1);
    expect(f.geometry.coordinates).toEqual([-46.6, -23.5]);
    expect(f.properties.icon).toBe('icon-truck');
    expect(f.properties.course).toBe(90);
    expect(f.properties.accuracy).toBe(30);
    expect(f.properties.mpp0).toBeCloseTo(156543.03392 * Math.cos((-23.5 * Math.PI) / 180), 3);
    expect(
      deviceFeature(dev({ category: 'rocket' }), pos(), DEFAULT_MAP_PREF, 'rastro', (s) => s).properties.icon,
    ).toBe('icon-default');
    expect(
      deviceFeature(
        dev({ attributes: { 'rastro.icon': 'plane' } }),
        pos(),
        DEFAULT_MAP_PREF,
        'rastro',
        (s) => s,
      ).properties.icon,
    ).toBe('icon-plane');
  });
});

describe('geofences', () => {
  const g = (id: number, area: string, attributes: Geofence['attributes'] = {}) =>
    ({ id, name: `G${id}`, area, attributes, calendarId: 0, description: null }) as Geofence;

  it('draws circles as polygons, keeps anchors apart, skips invalid areas', () => {
    const { shapes, labels } = geofenceFeatures([
      g(1, 'CIRCLE (-23.5 -46.6, 150)'),
      g(2, 'POLYGON ((-23 -46, -23 -47, -24 -47, -23 -46))'),
      g(3, 'CIRCLE (-23.6 -46.7, 150)', { isAnchor: true, deviceId: 7 }),
      g(4, 'garbage'),
      g(5, 'LINESTRING (-23 -46, -24 -47)'),
    ]);
    expect(shapes.features.map((f) => f.id)).toEqual([1, 2, 3, 5]);
    const circle = shapes.features[0].geometry as GeoJSON.Polygon;
    expect(circle.coordinates[0]).toHaveLength(65);
    expect(shapes.features[2].properties!.anchor).toBe(true);
    expect(shapes.features[0].properties!.anchor).toBe(false);
    expect(labels.features[0].geometry).toEqual({ type: 'Point', coordinates: [-46.6, -23.5] });
    expect(
      anchoredDeviceIds([g(3, 'CIRCLE (0 0, 1)', { isAnchor: 'true', deviceId: '7' }), g(1, 'x')]),
    ).toEqual(new Set([7]));
  });
});

describe('map styles', () => {
  it('OpenStreetMap is the default; keyed styles only with a key; offline has no tile source', () => {
    const plain = mapStyles(null, 'rastro').map((s) => s.id);
    expect(plain).toEqual(['osm', 'light', 'dark', 'vector', 'offline']);
    expect(resolveStyle(mapStyles(null, 'rastro'), 'nope').id).toBe('osm');
    expect(resolveStyle(mapStyles(null, 'rastro'), 'offline').style).toBe(OFFLINE_STYLE);
    expect(Object.keys(OFFLINE_STYLE.sources)).toEqual([]);
    const server = { attributes: { 'rastro.googleKey': 'K' }, bingKey: 'B' } as never;
    expect(mapKeys(server, 'rastro')).toEqual({ google: 'K', bing: 'B' });
    expect(mapStyles(server, 'rastro').map((s) => s.id)).toContain('google-satellite');
    expect(mapStyles(server, 'rastro').map((s) => s.id)).toContain('bing-aerial');
  });
});
