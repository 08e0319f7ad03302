import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FILTER_STATE,
  countDevices,
  deviceDriverLabel,
  deviceSearchText,
  distinctAttributeValues,
  filterDevices,
  isDeletedUniqueId,
  isFiltering,
  motionValue,
  normalizeQuery,
  setAdvancedFilter,
  setCombinedFilter,
  setMotionFilter,
  setStatusFilter,
  toggleHiddenCategory,
  warmSearchCache,
  type DeviceFilterState,
} from '../src/filters.ts';
import { device, position } from './fixtures.ts';

const devices = [
  device(1, { name: 'Truck Alpha', status: 'online', category: 'truck' }, { 'device.state': 'installed' }),
  device(2, { name: 'Car Beta', status: 'online', category: 'car' }, { 'device.gpsBrand': 'Teltonika' }),
  device(3, { name: 'Bus Gamma', status: 'offline', category: 'bus' }, { plate: 'ABC1D23' }),
  device(4, { name: 'Moto Delta', status: 'unknown', category: 'motorcycle' }, { 'device.technology': '4G' }),
  device(5, { name: 'Ghost', status: 'online', uniqueId: 'deleted-123-99' }),
];
const positions = new Map([
  [1, position(1, { motion: true, ignition: true, driverUniqueId: 'D1' })],
  [2, position(2, { motion: false, ignition: true, blocked: true })],
  [3, position(3, { motion: true })],
  [5, position(5, { motion: true })],
]);
const ids = (state: DeviceFilterState, data = { positions }) =>
  filterDevices(devices, state, data).map((d) => d.id);
const st = (over: Partial<DeviceFilterState>): DeviceFilterState => ({ ...DEFAULT_FILTER_STATE, ...over });

describe('hidden devices', () => {
  it('hides deleted-x-y uniqueIds only with exactly three parts', () => {
    expect(isDeletedUniqueId('deleted-123-99')).toBe(true);
    expect(isDeletedUniqueId('deleted-123')).toBe(false);
    expect(isDeletedUniqueId('deleted--')).toBe(true);
    expect(isDeletedUniqueId('deleted-1-2-3')).toBe(false);
    expect(isDeletedUniqueId('xdeleted-1-2')).toBe(false);
    expect(isDeletedUniqueId('deleted')).toBe(false);
    expect(isDeletedUniqueId('deleted-1-2-3')).toBe(false);
    expect(isDeletedUniqueId('xdeleted-1-2')).toBe(false);
    expect(ids(DEFAULT_FILTER_STATE)).toEqual([1, 2, 3, 4]);
  });
});

describe('status and motion', () => {
  it('filters by status', () => {
    expect(ids(st({ status: 'online' }))).toEqual([1, 2]);
    expect(ids(st({ status: 'offline' }))).toEqual([3]);
    expect(ids(st({ status: 'unknown' }))).toEqual([4]);
  });

  it('motion on resets status to all; choosing a status turns motion off', () => {
    const a = setMotionFilter(st({ status: 'offline' }), true);
    expect(a.status).toBe('all');
    expect(a.motion).toBe(true);
    expect(ids(a)).toEqual([1]); // online and moving only (3 moves but is offline)
    const b = setStatusFilter(a, 'online');
    expect(b.motion).toBe(false);
    expect(b.status).toBe('online');
    expect(setMotionFilter(b, false).status).toBe('online');
  });

  it('combined filter: moving = online & motion, stopped = online & !motion', () => {
    expect(ids(setCombinedFilter(DEFAULT_FILTER_STATE, 'moving'))).toEqual([1]);
    expect(ids(setCombinedFilter(DEFAULT_FILTER_STATE, 'stopped'))).toEqual([2]);
    expect(ids(setCombinedFilter(DEFAULT_FILTER_STATE, 'offline'))).toEqual([3]);
    expect(ids(setCombinedFilter(DEFAULT_FILTER_STATE, 'unknown'))).toEqual([4]);
    expect(ids(setCombinedFilter(DEFAULT_FILTER_STATE, 'online'))).toEqual([1, 2]);
  });

  it('motion values moving / idle / stopped', () => {
    expect(motionValue(positions.get(1))).toBe('moving');
    expect(motionValue(positions.get(2))).toBe('idle');
    expect(motionValue(position(9, { motion: false }))).toBe('stopped');
    expect(motionValue(undefined)).toBe('stopped');
  });
});

describe('state, advanced, category, single device', () => {
  it('device state filter', () => {
    expect(ids(st({ deviceState: 'installed' }))).toEqual([1]);
    expect(ids(st({ deviceState: 'withdrawn' }))).toEqual([]);
  });

  it('advanced filters combine, one per type', () => {
    let s = setAdvancedFilter(DEFAULT_FILTER_STATE, 'ignition', 'yes');
    expect(ids(s)).toEqual([1, 2]);
    s = setAdvancedFilter(s, 'locked', 'yes');
    expect(ids(s)).toEqual([2]);
    s = setAdvancedFilter(s, 'locked', 'no');
    expect(ids(s)).toEqual([1]);
    expect(Object.keys(s.advanced)).toEqual(['ignition', 'locked']);
    expect(ids(setAdvancedFilter(s, 'none', null))).toEqual([1, 2, 3, 4]);
    expect(ids(setAdvancedFilter(DEFAULT_FILTER_STATE, 'driver', 'yes'))).toEqual([1]);
    expect(ids(setAdvancedFilter(DEFAULT_FILTER_STATE, 'driver', 'd1'))).toEqual([1]);
    expect(ids(setAdvancedFilter(DEFAULT_FILTER_STATE, 'driver', 'no'))).toEqual([2, 3, 4]);
    expect(ids(setAdvancedFilter(DEFAULT_FILTER_STATE, 'gps_brand', 'teltonika'))).toEqual([2]);
    expect(ids(setAdvancedFilter(DEFAULT_FILTER_STATE, 'technology', '4G'))).toEqual([4]);
    const anchored = setAdvancedFilter(DEFAULT_FILTER_STATE, 'anchor', 'yes');
    expect(
      filterDevices(devices, anchored, { positions, anchoredDeviceIds: new Set([3]) }).map((d) => d.id),
    ).toEqual([3]);
    expect(setAdvancedFilter(s, 'ignition', '').advanced).toEqual({ locked: 'no' });
  });

  it('category hide list and show-only-one-device', () => {
    const s = toggleHiddenCategory(DEFAULT_FILTER_STATE, 'truck');
    expect(ids(s)).toEqual([2, 3, 4]);
    expect(toggleHiddenCategory(s, 'truck').hiddenCategories).toEqual([]);
    expect(ids(st({ onlyDeviceId: 3 }))).toEqual([3]);
  });
});

describe('text query', () => {
  it('matches any field or attribute case-insensitively', () => {
    expect(ids(st({ query: 'ALPHA' }))).toEqual([1]);
    expect(ids(st({ query: 'abc1d' }))).toEqual([3]);
    expect(ids(st({ query: '100002' }))).toEqual([2]);
    expect(ids(st({ query: '  ' }))).toEqual([1, 2, 3, 4]);
  });

  it("maps 'unknown' to 'desconhecido'", () => {
    expect(normalizeQuery(' Unknown ')).toBe('desconhecido');
    expect(deviceSearchText(devices[3])).toContain('desconhecido');
    expect(ids(st({ query: 'unknown' }))).toEqual([4]);
    expect(ids(st({ query: 'desconhecido' }))).toEqual([4]);
  });

  it('caches the search text per device object identity', () => {
    const d = device(7, { name: 'One' });
    expect(deviceSearchText(d)).toContain('one');
    d.name = 'Two'; // same object: cached text kept
    expect(deviceSearchText(d)).toContain('one');
    expect(deviceSearchText({ ...d })).toContain('two'); // replaced object: recomputed
  });

  it('filters 10,000 devices', () => {
    const many = Array.from({ length: 10000 }, (_, i) => device(i + 1, { name: `Vehicle ${i}` }));
    warmSearchCache(many);
    expect(filterDevices(many, st({ query: 'vehicle 999' })).length).toBe(11); // 999, 9990..9999
  });
});

describe('isFiltering and counts', () => {
  it('is on when any filter differs from its default', () => {
    expect(isFiltering(DEFAULT_FILTER_STATE)).toBe(false);
    expect(isFiltering(st({ query: 'a' }))).toBe(true);
    expect(isFiltering(st({ query: '   ' }))).toBe(false);
    expect(isFiltering(st({ motion: true }))).toBe(true);
    expect(isFiltering(st({ status: 'online' }))).toBe(true);
    expect(isFiltering(st({ combined: 'moving' }))).toBe(true);
    expect(isFiltering(st({ deviceState: 'company' }))).toBe(true);
    expect(isFiltering(st({ advanced: { locked: 'yes' } }))).toBe(true);
    expect(isFiltering(st({ hiddenCategories: ['car'] }))).toBe(true);
    expect(isFiltering(st({ onlyDeviceId: 0 }))).toBe(true);
  });

  it('counts online, offline, unknown, motion (online and moving), all', () => {
    expect(countDevices(devices, positions)).toEqual({
      online: 2,
      offline: 1,
      unknown: 1,
      motion: 1,
      all: 4,
    });
  });

  it('lists distinct attribute values', () => {
    expect(distinctAttributeValues(devices, 'device.gpsBrand')).toEqual(['Teltonika']);
  });
});

describe('deviceDriverLabel (issue #28: the driver named as reports name it)', () => {
  const drivers = [
    { uniqueId: 'MOT-006', name: 'Carla Dias' },
    { uniqueId: 'MOT-007', name: '  ' },
  ];
  it("the catalogue's name for the position's code, the code alongside", () => {
    expect(deviceDriverLabel(device(1), position(1, { driverUniqueId: 'MOT-006' }), drivers)).toEqual({
      name: 'Carla Dias',
      code: 'MOT-006',
    });
  });
  it("the device's code when the position has none", () => {
    expect(deviceDriverLabel(device(1, {}, { driverUniqueId: 'MOT-006' }), position(1), drivers)).toEqual({
      name: 'Carla Dias',
      code: 'MOT-006',
    });
  });
  it('a code the catalogue lacks (or names blank): the name the position carries, else none', () => {
    expect(deviceDriverLabel(device(1), position(1, { driverUniqueId: 'MOT-009' }), drivers)).toEqual({
      name: undefined,
      code: 'MOT-009',
    });
    expect(
      deviceDriverLabel(device(1), position(1, { driverUniqueId: 'MOT-007', driverName: 'Rui' }), drivers),
    ).toEqual({ name: 'Rui', code: 'MOT-007' });
    expect(deviceDriverLabel(device(1), position(1, { driverUniqueId: 'MOT-006' }), undefined)).toEqual({
      name: undefined,
      code: 'MOT-006',
    });
  });
  it('no driver at all: undefined', () => {
    expect(deviceDriverLabel(device(1), position(1), drivers)).toBeUndefined();
    expect(deviceDriverLabel(device(1), undefined, drivers)).toBeUndefined();
  });
});
