// Traccar's catalogues as people read them (issue #29): command types, device categories, event types and
// position alarms by name in the user's language (its refusals: serverErrorText.ts). Server texts and the web call
// these same functions.
import { defaultMessages, isMessageKey, type MessageLocale } from './messages.ts';
import { normalizeLocale } from './locale.ts';

/** Traccar's position alarm names (attributes.alarm, a comma list). ALARM_TYPES is the rule form's shorter list. */
export const POSITION_ALARMS = [
  'general',
  'sos',
  'vibration',
  'movement',
  'lowspeed',
  'overspeed',
  'fallDown',
  'lowPower',
  'lowBattery',
  'fault',
  'powerOff',
  'powerOn',
  'door',
  'lock',
  'unlock',
  'geofence',
  'geofenceEnter',
  'geofenceExit',
  'gpsAntennaCut',
  'accident',
  'tow',
  'idle',
  'highRpm',
  'hardAcceleration',
  'hardBraking',
  'hardCornering',
  'laneChange',
  'fatigueDriving',
  'powerCut',
  'powerRestored',
  'jamming',
  'temperature',
  'parking',
  'bonnet',
  'footBrake',
  'fuelLeak',
  'tampering',
  'removing',
] as const;

export type TraccarCatalogue = 'commandTypes' | 'categories' | 'events' | 'alarms';

const localeOf = (locale: string | null | undefined): MessageLocale => normalizeLocale(locale) ?? 'pt-BR';

/** The name of a catalogue value in a language; a value the catalogue does not know is shown as sent. */
export function traccarName(kind: TraccarCatalogue, value: string, locale?: string | null): string {
  const key = `${kind}.${value}`;
  return isMessageKey(key) ? defaultMessages[localeOf(locale)][key] : value;
}
