import { describe, expect, it } from 'vitest';
import { countdown, countdownKey, countdownTo } from '../src/share.ts';
import { isMessageKey } from '../src/messages.ts';

describe('shared-link countdown (SPEC §9)', () => {
  it('days over 86400 s, hours over 3600 s, minutes over 60 s, else seconds', () => {
    expect(countdown(86_401)).toMatchObject({ unit: 'days', value: 1 });
    expect(countdown(86_400)).toMatchObject({ unit: 'hours', value: 24 });
    expect(countdown(3_601)).toMatchObject({ unit: 'hours', value: 1 });
    expect(countdown(3_600)).toMatchObject({ unit: 'minutes', value: 60 });
    expect(countdown(61)).toMatchObject({ unit: 'minutes', value: 1 });
    expect(countdown(60)).toMatchObject({ unit: 'seconds', value: 60 });
    expect(countdown(1)).toMatchObject({ unit: 'seconds', value: 1, expired: false });
    expect(countdown(0)).toMatchObject({ expired: true });
    expect(countdown(-5)).toMatchObject({ expired: true, seconds: 0 });
  });
  it('from an expirationTime', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(countdownTo('2026-01-03T00:00:01Z', now)).toMatchObject({ unit: 'days', value: 2 });
    expect(countdownTo('2025-12-31T23:59:59Z', now)).toMatchObject({ expired: true });
    expect(countdownTo(null, now)).toBeNull();
    expect(countdownTo('garbage', now)).toBeNull();
  });
  it('labels are catalogued keys', () => {
    for (const s of [100_000, 5_000, 100, 5, 0]) expect(isMessageKey(countdownKey(countdown(s)))).toBe(true);
  });
});
