import { describe, expect, it } from 'vitest';
import { lostQrDriver, needsSessionRecheck, parseSocketMessage } from '../src/live.ts';

describe('live socket rules', () => {
  it('parses frames keeping known array keys', () => {
    expect(parseSocketMessage('{}')).toEqual({});
    expect(parseSocketMessage('{"positions":[{"id":1}],"devices":{},"x":[1]}')).toEqual({
      positions: [{ id: 1 }],
    });
    expect(parseSocketMessage('{"events":[],"users":[{"id":2}]}')).toEqual({
      events: [],
      users: [{ id: 2 }],
    });
    expect(parseSocketMessage('{"removedDevices":[4]}')).toEqual({ removedDevices: [4] });
    expect(parseSocketMessage('[1]')).toBeNull();
    expect(parseSocketMessage('nope')).toBeNull();
  });
  it('a device losing its qrDriverId triggers a session re-check', () => {
    const before = { id: 1, attributes: { qrDriverId: 7 } };
    expect(lostQrDriver(before, { attributes: {} })).toBe(true);
    expect(lostQrDriver(before, { attributes: { qrDriverId: 7 } })).toBe(false);
    expect(lostQrDriver(undefined, { attributes: {} })).toBe(false);
    expect(lostQrDriver({ attributes: {} }, { attributes: {} })).toBe(false);
    const known = new Map([[1, before]]);
    expect(needsSessionRecheck(known, [{ id: 1, attributes: { qrDriverId: '' } }])).toBe(true);
    expect(needsSessionRecheck(known, [{ id: 2, attributes: {} }])).toBe(false);
  });
});
