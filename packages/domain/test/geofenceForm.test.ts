import { describe, expect, it } from 'vitest';
import {
  areaBounds,
  emptyGeofenceForm,
  geofenceActions,
  permissionStringFromBits,
  formatArea,
  geofenceListFilter,
  geofenceMeasure,
  geofenceShapeOf,
  geofenceToForm,
  parseArea,
  parseGeofenceForm,
  type Geofence,
  type GeofenceFormValues,
} from '../src/index.ts';

const circle = 'CIRCLE (-23.55 -46.63, 1000)';
const form = (patch: Partial<GeofenceFormValues> = {}): GeofenceFormValues => ({
  ...emptyGeofenceForm(circle),
  name: 'Depósito',
  ...patch,
});

describe('WKT round trips of the three shapes (latitude first)', () => {
  it.each([
    'CIRCLE (-23.5503 -46.6339, 800)',
    'POLYGON ((-23.553 -46.665, -23.5575 -46.67, -23.57 -46.648, -23.5655 -46.643, -23.553 -46.665))',
    'LINESTRING (-23.5195 -46.7, -23.514 -46.665, -23.516 -46.63)',
  ])('%s', (wkt) => {
    const a = parseArea(wkt)!;
    expect(formatArea(a)).toBe(wkt);
    expect(formatArea(parseArea(formatArea(a))!)).toBe(wkt);
  });
  it('a polygon written without its closing point comes back closed', () => {
    expect(formatArea(parseArea('POLYGON ((0 0, 0 1, 1 1))')!)).toBe('POLYGON ((0 0, 0 1, 1 1, 0 0))');
  });
  it('geofenceShapeOf names the shape, null for an invalid area', () => {
    expect(geofenceShapeOf(circle)).toBe('circle');
    expect(geofenceShapeOf('POLYGON ((0 0, 0 1, 1 1))')).toBe('polygon');
    expect(geofenceShapeOf('LINESTRING (0 0, 1 1)')).toBe('line');
    expect(geofenceShapeOf('POINT (1 2)')).toBeNull();
  });
});

describe('geofenceMeasure (SPEC §9: km², 2 decimals)', () => {
  it('a circle of radius 1000 m is 3.14 km²', () => {
    const m = geofenceMeasure(parseArea(circle)!);
    expect(m.kind).toBe('area');
    expect(m.kind === 'area' && m.km2.toFixed(2)).toBe('3.14');
  });
  it('a 0.01° square at the equator is about 1.24 km² (R = 6 378 137 m)', () => {
    const m = geofenceMeasure(parseArea('POLYGON ((0 0, 0 0.01, 0.01 0.01, 0.01 0, 0 0))')!);
    expect(m.kind === 'area' && m.km2.toFixed(2)).toBe('1.24');
  });
  it('a line has a length: 0.01° along the equator is about 1113 m', () => {
    const m = geofenceMeasure(parseArea('LINESTRING (0 0, 0 0.01)')!);
    expect(m.kind).toBe('length');
    expect(m.kind === 'length' && Math.round(m.meters)).toBe(1113);
  });
});

describe('parseGeofenceForm', () => {
  it('empty (or blank) name gives the SPEC §5 message key', () => {
    for (const name of ['', '   ']) {
      const r = parseGeofenceForm(form({ name }), 'kmh');
      expect(r.ok).toBe(false);
      expect(!r.ok && r.errors.name).toBe('validation.geofenceNameRequired');
    }
  });
  it('builds the Geofence: colour, lock flags, speed limit in knots, calendar, kept attributes', () => {
    const r = parseGeofenceForm(
      form({
        name: '  Depósito ',
        description: ' Pátio ',
        color: '#E53935',
        lockOnEnter: true,
        lockOnExit: false,
        speedLimit: '80',
        calendarId: 4,
        attributes: { polylineDistance: 60 },
      }),
      'kmh',
    );
    expect(r).toEqual({
      ok: true,
      geofence: {
        id: 0,
        name: 'Depósito',
        description: 'Pátio',
        calendarId: 4,
        area: circle,
        attributes: {
          polylineDistance: 60,
          color: '#e53935',
          speedLimit: 43.1965, // 80 km/h / 1.852
          'rastro.lockOnEnter': true,
        },
      },
    });
  });
  it('speed: comma decimals are accepted; an empty or zero limit removes it; bad input is refused', () => {
    const ok = parseGeofenceForm(form({ speedLimit: '50,5' }), 'mph');
    expect(ok.ok && ok.geofence.attributes.speedLimit).toBeCloseTo(50.5 / 1.15078, 3);
    const cleared = parseGeofenceForm(form({ speedLimit: '', attributes: { speedLimit: 20 } }), 'kn');
    expect(cleared.ok && 'speedLimit' in cleared.geofence.attributes).toBe(false);
    const bad = parseGeofenceForm(form({ speedLimit: 'fast' }), 'kn');
    expect(!bad.ok && bad.errors.speedLimit).toBe('validation.invalidNumber');
    const neg = parseGeofenceForm(form({ speedLimit: '-3' }), 'kn');
    expect(!neg.ok && neg.errors.speedLimit).toBe('validation.notNegative');
  });
  it('refuses an invalid colour and a missing shape', () => {
    const r = parseGeofenceForm(form({ color: 'blue', area: '' }), 'kn');
    expect(r.ok).toBe(false);
    expect(!r.ok && r.errors).toMatchObject({
      color: 'validation.invalidColor',
      area: 'validation.required',
    });
  });
  it('geofenceToForm → parseGeofenceForm keeps the fence (speed shown in the user unit)', () => {
    const g: Geofence = {
      id: 9,
      name: 'Centro',
      description: null,
      calendarId: 0,
      area: circle,
      attributes: { color: '#43a047', speedLimit: 43.1965, 'rastro.lockOnExit': true, floor: 2 },
    };
    const v = geofenceToForm(g, 'kmh');
    expect(v).toMatchObject({
      id: 9,
      name: 'Centro',
      description: '',
      color: '#43a047',
      speedLimit: '80',
      lockOnEnter: false,
      lockOnExit: true,
      attributes: { floor: 2 },
    });
    const back = parseGeofenceForm(v, 'kmh');
    expect(back).toEqual({ ok: true, geofence: g });
  });
});

describe('geofenceListFilter', () => {
  const g = (id: number, name: string, attributes = {}, description: string | null = null) =>
    ({ id, name, description, attributes, calendarId: 0, area: circle }) as Geofence;
  const list = [
    g(1, 'Zona Sul'),
    g(2, 'Anchor Caminhão 1', { isAnchor: true, deviceId: 3 }),
    g(3, 'Área Central', {}, 'pátio'),
    g(4, 'bairro'),
  ];
  it('leaves anchors out and sorts by name', () => {
    expect(geofenceListFilter(list, '').map((x) => x.id)).toEqual([3, 4, 1]);
  });
  it('matches name or description without case or accents', () => {
    expect(geofenceListFilter(list, 'area').map((x) => x.id)).toEqual([3]);
    expect(geofenceListFilter(list, 'PATIO').map((x) => x.id)).toEqual([3]);
    expect(geofenceListFilter(list, 'anchor')).toEqual([]);
  });
});

describe('geofenceActions (SPEC §6)', () => {
  const server = { attributes: { 'rastro.enableAdvancedPerms': true } };
  const withPerms = (bits: number[]) => ({
    id: 5,
    attributes: { 'rastro.advancedPerms': permissionStringFromBits(bits) },
  });
  it('admins may do everything; a readonly user only views', () => {
    expect(geofenceActions({ user: { administrator: true }, server, isPlus: true })).toEqual({
      view: true,
      create: true,
      edit: true,
      delete: true,
    });
    expect(
      geofenceActions({ user: { id: 2, readonly: true, attributes: {} }, server, isPlus: false }),
    ).toEqual({ view: true, create: false, edit: false, delete: false });
  });
  it('advanced permissions: menu bit 40, then create 44, edit 45, delete 46', () => {
    const ctx = (bits: number[]) => ({ user: withPerms(bits), server, isPlus: true });
    expect(geofenceActions(ctx([40, 44]))).toEqual({ view: true, create: true, edit: false, delete: false });
    expect(geofenceActions(ctx([40, 45, 46]))).toEqual({
      view: true,
      create: false,
      edit: true,
      delete: true,
    });
    expect(geofenceActions(ctx([44, 45, 46])).view).toBe(false);
    expect(geofenceActions(ctx([44, 45, 46])).create).toBe(false);
  });
});

describe('areaBounds', () => {
  it('a circle spans its radius in every direction; a polygon its vertices', () => {
    const [w, s, e, n] = areaBounds(parseArea('CIRCLE (0 0, 1000)')!);
    const deg = (1000 / 6378137) * (180 / Math.PI);
    for (const [got, want] of [
      [w, -deg],
      [s, -deg],
      [e, deg],
      [n, deg],
    ])
      expect(got).toBeCloseTo(want, 9);
    expect(areaBounds(parseArea('POLYGON ((1 2, 3 -4, -5 6))')!)).toEqual([-4, -5, 6, 3]);
  });
});
