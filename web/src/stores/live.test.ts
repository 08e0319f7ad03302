import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Device, Position } from '@rastro/domain';
import { fetchPositionsByIds, setSessionRecheck, useLive } from './live.ts';

const dev = (id: number, attributes: Device['attributes'] = {}) =>
  ({ id, name: `D${id}`, uniqueId: `u${id}`, status: 'online', attributes }) as Device;
const pos = (deviceId: number, id: number, fixTime: string, lat = 1) =>
  ({ id, deviceId, fixTime, latitude: lat, longitude: 2, attributes: {} }) as unknown as Position;

beforeEach(() => {
  useLive.getState().clear();
  useLive.getState().setTrail(null);
});

describe('live store', () => {
  it('applies a batch: devices replaced, newer positions kept, older ignored', () => {
    const s = useLive.getState();
    s.setDevices([dev(1), dev(2)]);
    s.applyBatch({ positions: [pos(1, 10, '2024-01-01T10:00:00Z')] });
    s.applyBatch({ positions: [pos(1, 9, '2024-01-01T09:00:00Z')], devices: [{ ...dev(2), name: 'B' }] });
    const st = useLive.getState();
    expect(st.positions[1].id).toBe(10);
    expect(st.devices[2].name).toBe('B');
  });

  it('a removed device (deleted or unlinked) leaves the list, the map and the selection', () => {
    const s = useLive.getState();
    s.setDevices([dev(1), dev(2)]);
    s.applyBatch({ positions: [pos(1, 10, '2024-01-01T10:00:00Z'), pos(2, 11, '2024-01-01T10:00:00Z')] });
    s.select(2);
    s.setTrail(2);
    s.applyBatch({ removedDevices: [2] });
    const st = useLive.getState();
    expect(Object.keys(st.devices)).toEqual(['1']);
    expect(Object.keys(st.positions)).toEqual(['1']);
    expect(st.selectedId).toBeNull();
    expect(st.trailId).toBeNull();
  });

  it('a device losing its qrDriverId triggers a session re-check', () => {
    const recheck = vi.fn();
    setSessionRecheck(recheck);
    useLive.getState().setDevices([dev(1, { qrDriverId: 7 })]);
    useLive.getState().applyBatch({ devices: [dev(1, { qrDriverId: 7 })] });
    expect(recheck).not.toHaveBeenCalled();
    useLive.getState().applyBatch({ devices: [dev(1, {})] });
    expect(recheck).toHaveBeenCalledTimes(1);
  });

  it('sorts per SPEC §2: same key toggles, a new key starts ascending', () => {
    const s = useLive.getState();
    s.sortBy('lastUpdate');
    expect(useLive.getState().sort).toEqual({ key: 'lastUpdate', direction: 'asc' });
    s.sortBy('lastUpdate');
    expect(useLive.getState().sort).toEqual({ key: 'lastUpdate', direction: 'desc' });
    s.sortBy('motion');
    expect(useLive.getState().sort).toEqual({ key: 'motion', direction: 'asc' });
    s.sortBy('bogus');
    expect(useLive.getState().sort).toEqual({ key: 'name', direction: 'asc' });
  });

  it('trail mode records the followed device track', () => {
    const s = useLive.getState();
    s.setPositions([pos(1, 1, '2024-01-01T10:00:00Z', 1)]);
    s.setTrail(1);
    s.applyBatch({ positions: [pos(1, 2, '2024-01-01T10:01:00Z', 2), pos(2, 3, '2024-01-01T10:01:00Z', 9)] });
    expect(useLive.getState().trail).toEqual([
      [2, 1],
      [2, 2],
    ]);
  });

  it('keeps at most 200 events', () => {
    const events = Array.from({ length: 250 }, (_, i) => ({ id: i, deviceId: 1, type: 'alarm' }));
    useLive.getState().applyBatch({ events: events as never });
    expect(useLive.getState().events).toHaveLength(200);
    expect(useLive.getState().events[0].id).toBe(50);
  });

  it('fetches positions by id in batches of 500', async () => {
    const calls: number[][] = [];
    const ids = Array.from({ length: 1203 }, (_, i) => i + 1);
    const out = await fetchPositionsByIds(ids, async (q) => {
      calls.push(q.id);
      return q.id.map((id) => pos(id, id, '2024-01-01T00:00:00Z'));
    });
    expect(calls.map((c) => c.length)).toEqual([500, 500, 203]);
    expect(calls[1][0]).toBe(501);
    expect(out).toHaveLength(1203);
  });
});
