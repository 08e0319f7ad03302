import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, SORT_KEYS, formatSort, nextSort, parseSort, sortDevices } from '../src/sort.ts';
import { device, position } from './fixtures.ts';

describe('sort transitions', () => {
  it('has the eight SPEC keys', () => {
    expect(SORT_KEYS).toEqual([
      'name',
      'lastUpdate',
      'motion',
      'anchor',
      'locked',
      'ignition',
      'driver',
      'alert',
    ]);
  });

  it('same key toggles, new key starts asc, invalid falls back to name asc', () => {
    expect(nextSort(DEFAULT_SORT, 'name')).toEqual({ key: 'name', direction: 'desc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'name')).toEqual({ key: 'name', direction: 'asc' });
    expect(nextSort({ key: 'name', direction: 'desc' }, 'motion')).toEqual({
      key: 'motion',
      direction: 'asc',
    });
    expect(nextSort({ key: 'motion', direction: 'desc' }, 'speed')).toEqual(DEFAULT_SORT);
  });

  it('parses stored values', () => {
    expect(parseSort('lastUpdate:desc')).toEqual({ key: 'lastUpdate', direction: 'desc' });
    expect(parseSort('ignition')).toEqual({ key: 'ignition', direction: 'asc' });
    expect(parseSort({ key: 'alert', direction: 'desc' })).toEqual({ key: 'alert', direction: 'desc' });
    expect(parseSort('speed:asc')).toEqual(DEFAULT_SORT);
    expect(parseSort('name:up')).toEqual(DEFAULT_SORT);
    expect(parseSort({ key: 'name', direction: 'sideways' })).toEqual(DEFAULT_SORT);
    expect(parseSort(null)).toEqual(DEFAULT_SORT);
    expect(parseSort(42)).toEqual(DEFAULT_SORT);
    expect(formatSort({ key: 'driver', direction: 'desc' })).toBe('driver:desc');
  });
});

describe('sortDevices', () => {
  const list = [
    device(1, { name: 'charlie', lastUpdate: '2026-01-03T00:00:00Z' }),
    device(2, { name: 'Alpha', lastUpdate: null }),
    device(3, { name: 'bravo', lastUpdate: '2026-01-01T00:00:00Z' }),
    device(4, { name: 'Truck 10', lastUpdate: '2026-01-02T00:00:00Z' }),
    device(5, { name: 'Truck 9', lastUpdate: '2026-01-02T00:00:00Z' }),
  ];
  const positions = new Map([
    [1, position(1, { motion: true, ignition: true, alarm: 'sos' })],
    [4, position(4, { motion: true, blocked: true, driverUniqueId: 'X' })],
  ]);
  const ids = (key: string, direction: 'asc' | 'desc' = 'asc') =>
    sortDevices(list, parseSort(`${key}:${direction}`), { positions, anchoredDeviceIds: new Set([3]) }).map(
      (d) => d.id,
    );

  it('name asc/desc, case-insensitive and numeric', () => {
    expect(ids('name')).toEqual([2, 3, 1, 5, 4]);
    expect(ids('name', 'desc')).toEqual([4, 5, 1, 3, 2]);
  });

  it('lastUpdate asc/desc with name tie-break', () => {
    expect(ids('lastUpdate')).toEqual([2, 3, 5, 4, 1]);
    expect(ids('lastUpdate', 'desc')).toEqual([1, 5, 4, 3, 2]);
  });

  it('state keys put the active state first when ascending', () => {
    expect(ids('motion')).toEqual([1, 4, 2, 3, 5]);
    expect(ids('motion', 'desc')).toEqual([2, 3, 5, 1, 4]);
    expect(ids('anchor')).toEqual([3, 2, 1, 5, 4]);
    expect(ids('locked')).toEqual([4, 2, 3, 1, 5]);
    expect(ids('ignition')).toEqual([1, 2, 3, 5, 4]);
    expect(ids('driver')).toEqual([4, 2, 3, 1, 5]);
    expect(ids('alert')).toEqual([1, 2, 3, 5, 4]);
  });

  it('does not mutate its input', () => {
    const before = list.map((d) => d.id);
    sortDevices(list, { key: 'name', direction: 'desc' });
    expect(list.map((d) => d.id)).toEqual(before);
  });
});
