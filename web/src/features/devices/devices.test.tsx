import { act, cleanup, fireEvent, renderHook, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SORT, deviceImageCandidates, type Device, type Group, type Position } from '@rastro/domain';
import { renderWithProviders } from '../../components/testing.tsx';
import { DEFAULT_FILTERS, useLive } from '../../stores/live.ts';
import { usePrefs } from '../../stores/prefs.ts';
import { StatusCounts } from './DeviceFilters.tsx';
import { DeviceImage, imageCache } from './DeviceImage.tsx';
import { buildRows } from './DevicesPage.tsx';
import { filterSorted, useSortedDevices } from './useDeviceList.ts';

const dev = (id: number, p: Partial<Device> = {}) =>
  ({
    id,
    name: `D${id}`,
    uniqueId: `u${id}`,
    status: 'online',
    groupId: 0,
    category: 'car',
    attributes: {},
    ...p,
  }) as Device;
const moving = (deviceId: number) =>
  ({ id: deviceId, deviceId, attributes: { motion: true } }) as unknown as Position;

beforeEach(() => {
  useLive.getState().clear();
  useLive.getState().resetFilters();
  usePrefs.getState().setQuery('');
});
afterEach(cleanup);

describe('device list data', () => {
  const snap = { devices: {}, positions: { 2: moving(2) }, anchored: new Set<number>() };

  it('filtering keeps the sorted order and hides deleted-x-y uniqueIds', () => {
    const sorted = [
      dev(3, { name: 'Alpha' }),
      dev(1, { name: 'Bravo' }),
      dev(2, { name: 'Charlie', uniqueId: 'deleted-1-2' }),
    ];
    expect(filterSorted(sorted, DEFAULT_FILTERS, '', snap).map((d) => d.id)).toEqual([3, 1]);
    expect(filterSorted(sorted, DEFAULT_FILTERS, 'BRA', snap).map((d) => d.id)).toEqual([1]);
    expect(
      filterSorted([dev(1), dev(2)], { ...DEFAULT_FILTERS, motion: true }, '', snap).map((d) => d.id),
    ).toEqual([2]);
  });

  it('name order follows renames and new devices, and live updates of other fields keep it', () => {
    const snapOf = (list: Device[]) => ({
      devices: Object.fromEntries(list.map((d) => [d.id, d])),
      positions: {},
      anchored: new Set<number>(),
    });
    const a = dev(1, { name: 'Bravo' });
    const b = dev(2, { name: 'Alpha' });
    const { result, rerender } = renderHook(({ snap }) => useSortedDevices(snap, DEFAULT_SORT), {
      initialProps: { snap: snapOf([a, b]) },
    });
    expect(result.current.map((d) => d.id)).toEqual([2, 1]);
    const offline: Device = { ...b, status: 'offline' };
    rerender({ snap: snapOf([a, offline]) });
    expect(result.current.map((d) => d.id)).toEqual([2, 1]);
    expect(result.current[0]).toBe(offline); // the new object is listed
    rerender({ snap: snapOf([a, { ...offline, name: 'Zulu' }]) });
    expect(result.current.map((d) => d.id)).toEqual([1, 2]);
    rerender({ snap: snapOf([a, { ...offline, name: 'Zulu' }, dev(3, { name: 'Aaron' })]) });
    expect(result.current.map((d) => d.id)).toEqual([3, 1, 2]);
  });

  it('the grouped view puts a header per group (named groups first), collapsed groups hide their rows', () => {
    const groups = [
      { id: 5, name: 'Frota' },
      { id: 6, name: 'Apoio' },
    ] as Group[];
    const list = [
      dev(1, { groupId: 5 }),
      dev(2, { groupId: 0 }),
      dev(3, { groupId: 6 }),
      dev(4, { groupId: 5 }),
    ];
    const rows = buildRows(list, true, groups, {}, 'Sem grupo');
    expect(rows.map((r) => (r.kind === 'group' ? `g:${r.name}:${r.count}` : r.device.id))).toEqual([
      'g:Apoio:1',
      3,
      'g:Frota:2',
      1,
      4,
      'g:Sem grupo:1',
      2,
    ]);
    const collapsed = buildRows(list, true, groups, { '5': true }, 'Sem grupo');
    expect(
      collapsed.filter((r) => r.kind === 'device').map((r) => (r.kind === 'device' ? r.device.id : 0)),
    ).toEqual([3, 2]);
    expect(buildRows(list, false, groups, {}, '').every((r) => r.kind === 'device')).toBe(true);
  });
});

describe('status counts', () => {
  it('a status filter turns motion off; motion on resets the status to all', () => {
    renderWithProviders(<StatusCounts counts={{ all: 5, online: 3, offline: 1, unknown: 1, motion: 2 }} />);
    expect(screen.getByTestId('count-online-value').textContent).toContain('3');
    fireEvent.click(screen.getByTestId('count-motion'));
    expect(useLive.getState().filters).toMatchObject({ motion: true, status: 'all' });
    fireEvent.click(screen.getByTestId('count-offline'));
    expect(useLive.getState().filters).toMatchObject({ motion: false, status: 'offline' });
    fireEvent.click(screen.getByTestId('count-motion'));
    expect(useLive.getState().filters).toMatchObject({ motion: true, status: 'all' });
    expect(useLive.getState().sort).toEqual(DEFAULT_SORT);
  });
});

describe('device image', () => {
  it('tries the device picture, then its category, then the default category', () => {
    const d = dev(7, { category: 'truck', attributes: { imageTimestamp: 123 } });
    expect(deviceImageCandidates(d, 'rastro')).toEqual([
      '/rastro/assets/images/7.png?v=123',
      '/rastro/assets/images/categories/truck.png',
      '/rastro/assets/images/categories/default.png',
    ]);
    renderWithProviders(<DeviceImage device={d} ns="rastro" />);
    const img = screen.getByTestId('device-image') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('/rastro/assets/images/7.png?v=123');
    act(() => void fireEvent.error(img));
    expect(img.getAttribute('src')).toBe('/rastro/assets/images/categories/truck.png');
    act(() => void fireEvent.load(img));
    expect(imageCache.get('/rastro/assets/images/7.png?v=123')).toBe(
      '/rastro/assets/images/categories/truck.png',
    );
  });
});
