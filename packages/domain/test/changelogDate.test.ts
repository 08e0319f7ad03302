import { describe, expect, it } from 'vitest';
import { CHANGELOG, changelogDate } from '../src/index.ts';

describe('changelog dates in the user locale (issue #29)', () => {
  it('writes the calendar day as the language does, never ISO, whatever the time zone', () => {
    expect(changelogDate('2026-10-30', 'pt-BR')).toBe('30 de outubro de 2026');
    expect(changelogDate('2026-10-30', 'es')).toBe('30 de octubre de 2026');
    expect(changelogDate('2026-10-30', 'en-US')).toBe('October 30, 2026');
    expect(changelogDate('2026-01-01', 'pt-BR')).toBe('1 de janeiro de 2026');
    for (const r of CHANGELOG) expect(changelogDate(r.date, 'pt-BR')).not.toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('keeps a text that is not a date as it is', () => {
    expect(changelogDate('soon', 'pt-BR')).toBe('soon');
  });
});
