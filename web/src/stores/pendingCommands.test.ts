// Pending commands (SPEC §4): queued commands stay pending until a delivery event or the device reports again.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Device, Event, Position } from '@rastro/domain';
import { deliveredPending, readPending, usePendingCommands } from './pendingCommands.ts';
import { useSession } from './session.ts';

const SINCE = Date.parse('2026-01-01T10:00:00Z');
const device = (status: Device['status'], lastUpdate: string | null): Device => ({
  id: 7,
  attributes: {},
  groupId: 0,
  calendarId: 0,
  name: 'Truck',
  uniqueId: 'u7',
  status,
  lastUpdate,
  positionId: 0,
  phone: null,
  model: null,
  contact: null,
  category: null,
  disabled: false,
  expirationTime: null,
});
const event = (type: string, eventTime: string, attributes = {}): Event => ({
  id: 1,
  attributes,
  deviceId: 7,
  type,
  eventTime,
  positionId: 0,
  geofenceId: 0,
  maintenanceId: 0,
});

describe('usePendingCommands', () => {
  beforeEach(() => usePendingCommands.getState().reset());

  it('adds one entry per type and clears by type or all', () => {
    const s = usePendingCommands.getState();
    s.add(7, 'engineStop', SINCE);
    s.add(7, 'engineStop', SINCE + 1);
    s.add(7, 'custom', SINCE);
    expect(usePendingCommands.getState().byDevice[7].map((c) => c.type)).toEqual(['engineStop', 'custom']);
    usePendingCommands.getState().clear(7, 'custom');
    expect(usePendingCommands.getState().byDevice[7].map((c) => c.type)).toEqual(['engineStop']);
    usePendingCommands.getState().clear(7);
    expect(usePendingCommands.getState().byDevice[7]).toBeUndefined();
  });
});

describe('deliveredPending', () => {
  const pending = { 7: [{ deviceId: 7, type: 'engineStop', since: SINCE }] };

  it('keeps a command pending while the device is offline or has not reported since', () => {
    expect(deliveredPending(pending, { 7: device('offline', '2026-01-01T11:00:00Z') }, {}, [])).toEqual([]);
    expect(deliveredPending(pending, { 7: device('online', '2026-01-01T09:59:59Z') }, {}, [])).toEqual([]);
  });

  it('clears once the device is online with a newer update (device or position)', () => {
    expect(deliveredPending(pending, { 7: device('online', '2026-01-01T10:00:01Z') }, {}, [])).toEqual([
      [7, undefined],
    ]);
    const pos = { serverTime: '2026-01-01T10:05:00Z' } as Position;
    expect(deliveredPending(pending, { 7: device('online', null) }, { 7: pos }, [])).toEqual([
      [7, undefined],
    ]);
  });

  it('clears on a position received after queueing even while the stored device still says offline', () => {
    // after a reload the device list can predate the report; the socket's first message brings the position
    const pos = { serverTime: '2026-01-01T10:00:30Z' } as Position;
    expect(deliveredPending(pending, { 7: device('offline', null) }, { 7: pos }, [])).toEqual([
      [7, undefined],
    ]);
    const old = { serverTime: '2026-01-01T09:59:00Z' } as Position;
    expect(deliveredPending(pending, { 7: device('offline', null) }, { 7: old }, [])).toEqual([]);
  });

  it('clears on queuedCommandSent (by its type) or commandResult', () => {
    const sent = event('queuedCommandSent', '2026-01-01T10:01:00Z', { type: 'engineStop' });
    expect(deliveredPending(pending, {}, {}, [sent])).toEqual([[7, 'engineStop']]);
    expect(deliveredPending(pending, {}, {}, [event('commandResult', '2026-01-01T10:01:00Z')])).toEqual([
      [7, undefined],
    ]);
    // an old delivery event (well before the command was queued) does not count
    expect(deliveredPending(pending, {}, {}, [event('commandResult', '2026-01-01T08:00:00Z')])).toEqual([]);
  });
});

describe('pending commands survive a reload, per user', () => {
  const user = (id: number) =>
    ({ id }) as unknown as Parameters<ReturnType<typeof useSession.getState>['setUser']>[0];

  it('saves entries under the signed-in user, reloads them, and keeps users apart', () => {
    localStorage.clear();
    useSession.getState().setUser(user(1));
    usePendingCommands.getState().add(7, 'engineStop', SINCE);
    expect(readPending(1)).toEqual({ 7: [{ deviceId: 7, type: 'engineStop', since: SINCE }] });

    useSession.getState().setUser(user(2)); // another user signs in on this browser
    expect(usePendingCommands.getState().byDevice).toEqual({});
    useSession.getState().setUser(user(1)); // back: the entry is read from storage
    expect(usePendingCommands.getState().byDevice[7]?.map((c) => c.type)).toEqual(['engineStop']);

    usePendingCommands.getState().clear(7);
    expect(localStorage.getItem('pendingCommands.1')).toBeNull();
    useSession.getState().setUser(null);
    expect(usePendingCommands.getState().byDevice).toEqual({});
  });

  it('ignores malformed saved data', () => {
    localStorage.setItem(
      'pendingCommands.3',
      '{"7":[{"deviceId":7,"type":"engineStop","since":1},{"bad":1}],"x":5}',
    );
    expect(readPending(3)).toEqual({ 7: [{ deviceId: 7, type: 'engineStop', since: 1 }] });
    localStorage.setItem('pendingCommands.3', 'not json');
    expect(readPending(3)).toEqual({});
  });
});
