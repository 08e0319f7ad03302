import { describe, expect, it } from 'vitest';
import {
  anchorForDevice,
  anchorLink,
  anchorMode,
  anchoredDeviceIds,
  buildAnchorGeofence,
  isAnchorGeofence,
  nextAnchorCommand,
  splitGeofences,
} from '../src/anchor.ts';

describe('anchor geofence (SPEC §3)', () => {
  it('builds id -1, Anchor <name>, empty description, CIRCLE radius 150, calendar 0', () => {
    expect(buildAnchorGeofence({ id: 9, name: 'Truck 1' }, { latitude: -23.55, longitude: -46.63 })).toEqual({
      id: -1,
      name: 'Anchor Truck 1',
      description: '',
      area: 'CIRCLE (-23.55 -46.63, 150)',
      calendarId: 0,
      attributes: { deviceId: 9, isAnchor: true },
    });
    expect(anchorLink(9, 44)).toEqual({ deviceId: 9, geofenceId: 44 });
  });
  it('detects and separates anchors', () => {
    const list = [
      { id: 1, attributes: { isAnchor: true, deviceId: 9 } },
      { id: 2, attributes: {} },
      { id: 3, attributes: { isAnchor: 'true', deviceId: '10' } },
    ];
    expect(isAnchorGeofence(list[0])).toBe(true);
    expect(isAnchorGeofence(list[1])).toBe(false);
    const { anchors, fences } = splitGeofences(list);
    expect(anchors.map((g) => g.id)).toEqual([1, 3]);
    expect(fences.map((g) => g.id)).toEqual([2]);
    expect(anchorForDevice(list, 10)?.id).toBe(3);
    expect(anchorForDevice(list, 11)).toBeUndefined();
    expect([...anchoredDeviceIds(list)]).toEqual([9, 10]);
  });
  it('transitions', () => {
    expect(nextAnchorCommand(false)).toBe('anchor_enable');
    expect(nextAnchorCommand(true)).toBe('anchor_disable');
    expect(anchorMode('anchor_enable')).toBe('enable');
    expect(anchorMode('anchor_disable')).toBe('disable');
    expect(anchorMode('engineStop')).toBeNull();
  });
});
