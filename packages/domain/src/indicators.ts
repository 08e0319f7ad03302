// SPEC §9 indicator thresholds: vehicle power (V), battery (V) and satellites.
import { attrNumber } from './attributes.ts';
import type { Attributes } from './types.ts';

export type IndicatorLevel = 'red' | 'amber' | 'green' | 'none';

export const POWER_THRESHOLDS = { red: 11.5, amber: 12.5 } as const;
export const BATTERY_THRESHOLDS = { red: 3.2, amber: 3.7 } as const;
export const SATELLITE_THRESHOLDS = { red: 4, amber: 8 } as const;

function level(value: unknown, t: { red: number; amber: number }): IndicatorLevel {
  const v = attrNumber(value);
  if (v === undefined) return 'none';
  if (v < t.red) return 'red';
  if (v < t.amber) return 'amber';
  return 'green';
}

/** Vehicle power: under 11.5 V red, under 12.5 V amber. */
export const powerLevel = (volts: unknown): IndicatorLevel => level(volts, POWER_THRESHOLDS);
/** Battery: under 3.2 V red, under 3.7 V amber. */
export const batteryLevel = (volts: unknown): IndicatorLevel => level(volts, BATTERY_THRESHOLDS);
/** Satellites: under 4 red, under 8 amber. */
export const satelliteLevel = (count: unknown): IndicatorLevel => level(count, SATELLITE_THRESHOLDS);

/** The three indicators of a position's attributes. */
export function positionIndicators(attributes: Attributes | null | undefined): {
  power: IndicatorLevel;
  battery: IndicatorLevel;
  sat: IndicatorLevel;
} {
  return {
    power: powerLevel(attributes?.power),
    battery: batteryLevel(attributes?.battery),
    sat: satelliteLevel(attributes?.sat),
  };
}
