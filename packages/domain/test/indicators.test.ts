import { describe, expect, it } from 'vitest';
import { batteryLevel, positionIndicators, powerLevel, satelliteLevel } from '../src/indicators.ts';

describe('indicator thresholds (SPEC §9)', () => {
  it('power: < 11.5 red, < 12.5 amber', () => {
    expect(powerLevel(11.49)).toBe('red');
    expect(powerLevel(11.5)).toBe('amber');
    expect(powerLevel(12.49)).toBe('amber');
    expect(powerLevel(12.5)).toBe('green');
  });
  it('battery: < 3.2 red, < 3.7 amber', () => {
    expect(batteryLevel(3.19)).toBe('red');
    expect(batteryLevel(3.2)).toBe('amber');
    expect(batteryLevel(3.69)).toBe('amber');
    expect(batteryLevel(3.7)).toBe('green');
  });
  it('satellites: < 4 red, < 8 amber', () => {
    expect(satelliteLevel(3)).toBe('red');
    expect(satelliteLevel(4)).toBe('amber');
    expect(satelliteLevel(7)).toBe('amber');
    expect(satelliteLevel(8)).toBe('green');
  });
  it('missing values give none; strings are read', () => {
    expect(powerLevel(undefined)).toBe('none');
    expect(powerLevel('abc')).toBe('none');
    expect(positionIndicators({ power: '12.0', battery: 4.1, sat: 2 })).toEqual({
      power: 'amber',
      battery: 'green',
      sat: 'red',
    });
    expect(positionIndicators(null)).toEqual({ power: 'none', battery: 'none', sat: 'none' });
  });
});
