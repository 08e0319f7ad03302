// Units from the reader's language when neither the user nor the server chose, and the locale formatters of
// dates, times, axis ticks and numbers (issue #29).
import { describe, expect, it } from 'vitest';
import {
  formatAxisTime,
  formatDate,
  formatDateTime,
  formatDecimal,
  formatSpeed,
  formatTime,
} from '../src/format.ts';
import { DEFAULT_UNITS, localeUnits, resolveUnits } from '../src/units.ts';

const kmhEtc = { speedUnit: 'kmh', distanceUnit: 'km', altitudeUnit: 'm', volumeUnit: 'ltr' };

describe('the effective unit: user → server → the language default', () => {
  it('pt-BR and es default to km/h, km, m and litres; en-US keeps Traccar web’s kn, km, m, ltr', () => {
    expect(resolveUnits(null, null, 'pt-BR')).toEqual(kmhEtc);
    expect(resolveUnits({ attributes: {} }, { attributes: {} }, 'es')).toEqual(kmhEtc);
    expect(resolveUnits(null, null, 'en-US')).toEqual({
      speedUnit: 'kn',
      distanceUnit: 'km',
      altitudeUnit: 'm',
      volumeUnit: 'ltr',
    });
    expect(localeUnits('en-US')).toEqual(DEFAULT_UNITS);
  });

  it('tags are normalised; an unknown or missing language gets pt-BR’s units', () => {
    expect(localeUnits('es-AR').speedUnit).toBe('kmh');
    expect(localeUnits('en').speedUnit).toBe('kn');
    expect(localeUnits('de').speedUnit).toBe('kmh');
    expect(resolveUnits(null, null).speedUnit).toBe('kmh');
  });

  it('the user’s choice wins over the server’s, the server’s over the language', () => {
    expect(
      resolveUnits({ attributes: { speedUnit: 'mph' } }, { attributes: { speedUnit: 'kn' } }, 'pt-BR'),
    ).toMatchObject({ speedUnit: 'mph', distanceUnit: 'km' });
    expect(resolveUnits({ attributes: {} }, { attributes: { speedUnit: 'kn' } }, 'pt-BR').speedUnit).toBe(
      'kn',
    );
    expect(resolveUnits({ attributes: {} }, { attributes: { speedUnit: 'kmh' } }, 'en-US').speedUnit).toBe(
      'kmh',
    );
    expect(
      resolveUnits({ attributes: { volumeUnit: 'usGallon' } }, { attributes: { distanceUnit: 'mi' } }, 'es'),
    ).toEqual({ speedUnit: 'kmh', distanceUnit: 'mi', altitudeUnit: 'm', volumeUnit: 'usGallon' });
  });

  it('a forced server setting wins over the user; unknown values fall through to the language', () => {
    const server = { attributes: { speedUnit: 'kn' }, forceSettings: true };
    expect(resolveUnits({ attributes: { speedUnit: 'mph' } }, server, 'pt-BR').speedUnit).toBe('kn');
    expect(resolveUnits({ attributes: { speedUnit: 'warp' } }, { attributes: {} }, 'pt-BR').speedUnit).toBe(
      'kmh',
    );
  });

  it('a pt-BR reader with no unit chosen reads "55,3 km/h"', () => {
    const u = resolveUnits(null, null, 'pt-BR');
    expect(formatSpeed(55.3 / 1.852, u.speedUnit, 'pt-BR', 1)).toBe('55,3 km/h');
  });
});

describe('dates, times and numbers in the locale', () => {
  const t = Date.UTC(2026, 10, 27, 15, 51, 7);
  const morning = Date.UTC(2026, 10, 27, 6, 0);

  it('dates: dd/mm/aaaa in pt-BR and es, mm/dd/yyyy in en-US', () => {
    expect(formatDate(t, 'pt-BR', 'UTC')).toBe('27/11/2026');
    expect(formatDate(t, 'es', 'UTC')).toBe('27/11/2026');
    expect(formatDate(t, 'en-US', 'UTC')).toBe('11/27/2026');
    expect(formatDate(new Date(t).toISOString(), 'pt-BR', 'America/Sao_Paulo')).toBe('27/11/2026');
  });

  it('times: 24-hour clock in pt-BR and es, 12-hour in en-US', () => {
    expect(formatTime(t, 'pt-BR', 'UTC')).toBe('15:51');
    expect(formatTime(morning, 'pt-BR', 'UTC')).toBe('06:00');
    expect(formatTime(morning, 'es', 'UTC')).toBe('06:00');
    expect(formatTime(t, 'en-US', 'UTC')).toMatch(/^3:51\sPM$/);
    expect(formatTime(t, 'pt-BR', 'UTC', true)).toBe('15:51:07');
    expect(formatTime(t, 'pt-BR', 'America/Sao_Paulo')).toBe('12:51');
  });

  it('date and time together; invalid input gives an empty text', () => {
    expect(formatDateTime(t, 'pt-BR', 'UTC')).toMatch(/^27\/11\/2026,? 15:51$/);
    expect(formatDateTime(t, 'en-US', 'UTC')).toMatch(/^11\/27\/2026, 3:51\sPM$/);
    expect(formatDateTime('not a date', 'pt-BR')).toBe('');
    expect(formatDate(Number.NaN, 'pt-BR')).toBe('');
  });

  it('axis ticks: time of day under a day apart, day/month from a day apart', () => {
    expect(formatAxisTime(morning, 3_600_000, 'pt-BR', 'UTC')).toBe('06:00');
    expect(formatAxisTime(morning, 3_600_000, 'en-US', 'UTC')).toMatch(/^6:00\sAM$/);
    expect(formatAxisTime(morning, 86_400_000, 'pt-BR', 'UTC')).toBe('27/11');
    expect(formatAxisTime(morning, 86_400_000, 'en-US', 'UTC')).toBe('11/27');
  });

  it('decimals: comma in pt-BR and es, point in en-US, at most the digits asked', () => {
    expect(formatDecimal(50.87, 'pt-BR')).toBe('50,87');
    expect(formatDecimal(50.87, 'es')).toBe('50,87');
    expect(formatDecimal(50.87, 'en-US')).toBe('50.87');
    expect(formatDecimal(51, 'pt-BR')).toBe('51');
    expect(formatDecimal(55.34, 'pt-BR', 1)).toBe('55,3');
  });
});
