// SPEC §9 units. Traccar sends speed in knots, distances/altitude in metres, durations and engine hours in ms.
import { DEFAULT_LOCALE, normalizeLocale, type SupportedLocale } from './locale.ts';
import type { Attributes } from './types.ts';

export const KNOT_TO_KMH = 1.852;
export const KNOT_TO_MPH = 1.15078;
export const KM_TO_MI = 0.621371;
export const METERS_PER_NMI = 1852;
export const METER_TO_FT = 3.28084;
/** One knot in metres per second (one nautical mile, 1852 m, per hour). */
export const MPS_PER_KNOT = METERS_PER_NMI / 3600;
/** One metre per second in km/h. */
export const KMH_PER_MPS = 3.6;
export const LITER_TO_US_GALLON = 0.264172;
export const LITER_TO_IMP_GALLON = 0.219969;

export const SPEED_UNITS = ['kn', 'kmh', 'mph'] as const;
export type SpeedUnit = (typeof SPEED_UNITS)[number];
export const DISTANCE_UNITS = ['km', 'mi', 'nmi'] as const;
export type DistanceUnit = (typeof DISTANCE_UNITS)[number];
export const ALTITUDE_UNITS = ['m', 'ft'] as const;
export type AltitudeUnit = (typeof ALTITUDE_UNITS)[number];
export const VOLUME_UNITS = ['ltr', 'usGallon', 'impGallon'] as const;
export type VolumeUnit = (typeof VOLUME_UNITS)[number];

export const UNIT_LABELS: Record<SpeedUnit | DistanceUnit | AltitudeUnit | VolumeUnit, string> = {
  kn: 'kn',
  kmh: 'km/h',
  mph: 'mph',
  km: 'km',
  mi: 'mi',
  nmi: 'nmi',
  m: 'm',
  ft: 'ft',
  ltr: 'l',
  usGallon: 'gal',
  impGallon: 'gal',
};

export const knotsToKmh = (kn: number): number => kn * KNOT_TO_KMH;
export const knotsToMph = (kn: number): number => kn * KNOT_TO_MPH;
export const kmhToKnots = (kmh: number): number => kmh / KNOT_TO_KMH;
export const mphToKnots = (mph: number): number => mph / KNOT_TO_MPH;
export const knotsToMps = (kn: number): number => kn * MPS_PER_KNOT;
export const mpsToKnots = (mps: number): number => mps / MPS_PER_KNOT;
export const kmhToMps = (kmh: number): number => kmh / KMH_PER_MPS;
export const mpsToKmh = (mps: number): number => mps * KMH_PER_MPS;
export const metersToKm = (m: number): number => m / 1000;
export const kmToMiles = (km: number): number => km * KM_TO_MI;
export const milesToKm = (mi: number): number => mi / KM_TO_MI;
export const metersToMiles = (m: number): number => kmToMiles(metersToKm(m));
export const metersToNmi = (m: number): number => m / METERS_PER_NMI;
export const metersToFeet = (m: number): number => m * METER_TO_FT;
export const secondsToHours = (s: number): number => s / 3600;
export const msToHours = (ms: number): number => ms / 3_600_000;
export const hoursToMs = (h: number): number => h * 3_600_000;

export function convertSpeed(knots: number, unit: SpeedUnit): number {
  if (unit === 'kmh') return knotsToKmh(knots);
  if (unit === 'mph') return knotsToMph(knots);
  return knots;
}

/** Speed in `unit` back to knots (forms: speed limits). */
export function speedToKnots(value: number, unit: SpeedUnit): number {
  if (unit === 'kmh') return kmhToKnots(value);
  if (unit === 'mph') return mphToKnots(value);
  return value;
}

export function convertDistance(meters: number, unit: DistanceUnit): number {
  if (unit === 'mi') return metersToMiles(meters);
  if (unit === 'nmi') return metersToNmi(meters);
  return metersToKm(meters);
}

/** Distance in `unit` back to metres (forms: odometer). */
export function distanceToMeters(value: number, unit: DistanceUnit): number {
  if (unit === 'mi') return milesToKm(value) * 1000;
  if (unit === 'nmi') return value * METERS_PER_NMI;
  return value * 1000;
}

export function convertAltitude(meters: number, unit: AltitudeUnit): number {
  return unit === 'ft' ? metersToFeet(meters) : meters;
}

export function convertVolume(liters: number, unit: VolumeUnit): number {
  if (unit === 'usGallon') return liters * LITER_TO_US_GALLON;
  if (unit === 'impGallon') return liters * LITER_TO_IMP_GALLON;
  return liters;
}

export interface UnitSource {
  attributes?: Attributes | null;
}
export interface UnitServer extends UnitSource {
  forceSettings?: boolean;
}

export interface Units {
  speedUnit: SpeedUnit;
  distanceUnit: DistanceUnit;
  altitudeUnit: AltitudeUnit;
  volumeUnit: VolumeUnit;
}

/** Traccar's web app defaults (its usePreference fallbacks): knots, km, metres, litres. en-US keeps them. */
export const DEFAULT_UNITS: Units = Object.freeze({
  speedUnit: 'kn',
  distanceUnit: 'km',
  altitudeUnit: 'm',
  volumeUnit: 'ltr',
}) as Units;

/** What "Padrão" means per language when neither the user nor the server chose: km/h in pt-BR and es. */
export const LOCALE_UNITS: Readonly<Record<SupportedLocale, Units>> = Object.freeze({
  'pt-BR': Object.freeze({
    speedUnit: 'kmh',
    distanceUnit: 'km',
    altitudeUnit: 'm',
    volumeUnit: 'ltr',
  }) as Units,
  es: Object.freeze({ speedUnit: 'kmh', distanceUnit: 'km', altitudeUnit: 'm', volumeUnit: 'ltr' }) as Units,
  'en-US': DEFAULT_UNITS,
});

/** The units of a language (any tag normalizeLocale knows); unknown or missing tags get pt-BR's (SPEC §1). */
export function localeUnits(locale?: string | null): Units {
  return LOCALE_UNITS[normalizeLocale(locale) ?? DEFAULT_LOCALE];
}

function pick<T extends string>(allowed: readonly T[], ...values: unknown[]): T | undefined {
  for (const v of values)
    if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return v as T;
  return undefined;
}

/**
 * The effective units: the user's attributes, else the server's (the server first when `forceSettings`), else the
 * defaults of the reader's language (localeUnits: km/h, km, m, l in pt-BR and es; Traccar's kn, km, m, l in
 * en-US). Unknown values are skipped. Every screen, Excel header, chart and notification text asks this.
 */
export function resolveUnits(
  user: UnitSource | null | undefined,
  server: UnitServer | null | undefined,
  locale?: string | null,
): Units {
  const ordered = server?.forceSettings ? [server, user] : [user, server];
  const get = (key: keyof Units) => ordered.map((s) => s?.attributes?.[key]);
  const fallback = localeUnits(locale);
  return {
    speedUnit: pick(SPEED_UNITS, ...get('speedUnit')) ?? fallback.speedUnit,
    distanceUnit: pick(DISTANCE_UNITS, ...get('distanceUnit')) ?? fallback.distanceUnit,
    altitudeUnit: pick(ALTITUDE_UNITS, ...get('altitudeUnit')) ?? fallback.altitudeUnit,
    volumeUnit: pick(VOLUME_UNITS, ...get('volumeUnit')) ?? fallback.volumeUnit,
  };
}
