import { describe, expect, it } from 'vitest';
import { dateInputPattern, dateInputPlaceholder, parseDateInput } from '../src/dateInput.ts';

describe('date fields in the app language', () => {
  it('reads day first in pt-BR and es, month first in en-US', () => {
    expect(dateInputPattern('pt-BR', true)).toBe('DD/MM/YYYY HH:mm');
    expect(dateInputPattern('es', false)).toBe('DD/MM/YYYY');
    expect(dateInputPattern('en-US', false)).toBe('MM/DD/YYYY');
    expect(dateInputPlaceholder('pt-BR', false)).toBe('dd/mm/aaaa');
    expect(dateInputPlaceholder('en-US', true)).toBe('mm/dd/yyyy hh:mm');
    expect(parseDateInput('05/03/2026', 'pt-BR', false)).toBe('2026-03-05');
    expect(parseDateInput('05/03/2026', 'es', false)).toBe('2026-03-05');
    expect(parseDateInput('05/03/2026', 'en-US', false)).toBe('2026-05-03');
  });

  it('keeps the time of a date-and-time field, midnight when left out', () => {
    expect(parseDateInput('28/11/2026 08:05', 'pt-BR', true)).toBe('2026-11-28T08:05');
    expect(parseDateInput('28-11-2026', 'pt-BR', true)).toBe('2026-11-28T00:00');
    expect(parseDateInput('28/11/2026 08:05', 'pt-BR', false)).toBeNull();
  });

  it('refuses partial typing and dates or times that do not exist', () => {
    for (const text of [
      '',
      '28/11',
      '28/11/202',
      '31/02/2026',
      '28/13/2026',
      '28/11/2026 24:00',
      '28/11/2026 8:6',
    ])
      expect(parseDateInput(text, 'pt-BR', true), text).toBeNull();
    expect(parseDateInput('11/28/2026', 'pt-BR', false)).toBeNull();
  });
});
