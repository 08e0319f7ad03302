// The desk's queue order, socket merge, timers and repeating sound (issue #32).
import type { Alarm } from '@rastro/domain';
import { describe, expect, it } from 'vitest';
import { AlarmSoundLoop, REPEAT_MS } from './alarmSound.ts';
import { DEFAULT_FILTERS } from './api.ts';
import { alarmAge, mergeAlarms, needsAttention, sortQueue } from './queue.ts';

const alarm = (id: number, fields: Partial<Alarm>): Alarm => ({
  id,
  deviceId: 1,
  deviceName: 'Car',
  type: 'sos',
  detail: '',
  severity: 'critical',
  positionId: 1,
  latitude: null,
  longitude: null,
  time: '2026-01-01T10:00:00Z',
  lastTime: '2026-01-01T10:00:00Z',
  count: 1,
  state: 'open',
  assignedUserId: null,
  assignedUserName: null,
  ackUserId: null,
  ackUserName: null,
  ackTime: null,
  resolveUserId: null,
  resolveUserName: null,
  resolveTime: null,
  outcome: null,
  notes: [],
  ...fields,
});

describe('monitoring queue', () => {
  it('sorts by severity, then the oldest first', () => {
    const list = [
      alarm(1, { severity: 'low', time: '2026-01-01T09:00:00Z' }),
      alarm(2, { severity: 'critical', time: '2026-01-01T10:05:00Z' }),
      alarm(3, { severity: 'critical', time: '2026-01-01T10:00:00Z' }),
      alarm(4, { severity: 'high', time: '2026-01-01T11:00:00Z' }),
    ];
    expect(sortQueue(list).map((a) => a.id)).toEqual([3, 2, 4, 1]);
  });

  it('merges socket alarms: new ones in order, changed ones replaced, resolved ones out of the open list', () => {
    const list = [alarm(1, { severity: 'high' })];
    const merged = mergeAlarms(
      list,
      [alarm(2, {}), alarm(1, { severity: 'high', count: 3 })],
      DEFAULT_FILTERS,
    );
    expect(merged.map((a) => [a.id, a.count])).toEqual([
      [2, 1],
      [1, 3],
    ]);
    expect(mergeAlarms(merged, [alarm(2, { state: 'resolved' })], DEFAULT_FILTERS).map((a) => a.id)).toEqual([
      1,
    ]);
    expect(mergeAlarms([], [alarm(5, { type: 'towing' })], { ...DEFAULT_FILTERS, type: 'sos' })).toEqual([]);
  });

  it('tells the age as a running timer and rings only while an alarm is open', () => {
    const now = Date.parse('2026-01-01T10:00:00Z');
    expect(alarmAge('2026-01-01T10:00:00Z', now + 65_000)).toBe('1:05');
    expect(alarmAge('2026-01-01T10:00:00Z', now + 3_725_000)).toBe('1:02:05');
    expect(needsAttention([alarm(1, { state: 'acknowledged' })])).toBe(false);
    expect(needsAttention([alarm(1, { state: 'acknowledged' }), alarm(2, {})])).toBe(true);
  });
});

describe('the desk sound', () => {
  const fakeTimers = () => {
    const timers = new Map<number, { fn: () => void; ms: number }>();
    let next = 1;
    return {
      timers,
      setTimer: (fn: () => void, ms: number) => {
        timers.set(next, { fn, ms });
        return next++;
      },
      clearTimer: (h: unknown) => void timers.delete(h as number),
      fire() {
        const [id, t] = [...timers.entries()][0];
        timers.delete(id);
        t.fn();
      },
    };
  };

  it('plays at once and every REPEAT_MS until nothing is open, silent while muted', () => {
    const t = fakeTimers();
    let muted = false;
    let played = 0;
    const loop = new AlarmSoundLoop({ play: () => played++, muted: () => muted, ...t });
    loop.update(true);
    expect(played).toBe(1);
    expect(loop.scheduled).toBe(true);
    expect([...t.timers.values()][0].ms).toBe(REPEAT_MS);
    t.fire();
    expect(played).toBe(2);
    loop.update(true); // still ringing: no second timer
    expect(t.timers.size).toBe(1);
    muted = true;
    t.fire();
    expect(played).toBe(2);
    expect(loop.scheduled).toBe(true);
    loop.update(false);
    expect(loop.scheduled).toBe(false);
    expect(t.timers.size).toBe(0);
    expect(loop.plays).toBe(2);
  });
});
