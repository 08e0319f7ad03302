import { describe, expect, it } from 'vitest';
import { formatBytes, formatUptime, percent } from './format.ts';

describe('health figures', () => {
  it('bytes in binary steps with the locale digits', () => {
    expect(formatBytes(512, 'en-US')).toBe('512 B');
    expect(formatBytes(1536, 'en-US')).toBe('1.5 kB');
    expect(formatBytes(1536, 'pt-BR')).toBe('1,5 kB');
    expect(formatBytes(250 * 1024 * 1024, 'en-US')).toBe('250 MB');
    expect(formatBytes(3.25 * 1024 ** 3, 'en-US')).toBe('3.3 GB');
    expect(formatBytes(-1, 'en-US')).toBe('—');
  });

  it('uptime in days, hours, minutes and seconds', () => {
    expect(formatUptime(2 * 86_400 + 3 * 3600 + 4 * 60 + 5)).toBe('2 d 03 h 04 min');
    expect(formatUptime(3 * 3600 + 4 * 60)).toBe('3 h 04 min');
    expect(formatUptime(4 * 60 + 5)).toBe('4 min 05 s');
    expect(formatUptime(5)).toBe('5 s');
    expect(formatUptime(86_400 + 59.9)).toBe('1 d 00 h 00 min');
    expect(formatUptime(-3)).toBe('0 s');
  });

  it('percent of a whole', () => {
    expect(percent(1, 4)).toBe(25);
    expect(percent(2, 3)).toBe(67);
    expect(percent(5, 0)).toBe(0);
  });
});
