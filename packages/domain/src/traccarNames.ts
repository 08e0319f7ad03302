// Traccar's catalogues as people read them (issue #29): command types, device categories, event types and
// position alarms by name in the user's language, and Traccar's English refusals ("Write access denied", …)
// without their Java exception class, translated where known. Server texts and the web call these same functions.
import { defaultMessages, isMessageKey, type MessageKey, type MessageLocale } from './messages.ts';
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

/** Traccar's English refusal texts (and this server's same-worded ones) ⇒ their message keys. */
const KNOWN_ERRORS: Readonly<Record<string, MessageKey>> = {
  'write access denied': 'traccarErrors.writeAccessDenied',
  'administrator access required': 'traccarErrors.administratorRequired',
  'manager access required': 'traccarErrors.managerRequired',
  'device access denied': 'traccarErrors.deviceAccessDenied',
  'user access denied': 'traccarErrors.userAccessDenied',
  'driver access denied': 'traccarErrors.driverAccessDenied',
  'device limit reached': 'traccarErrors.deviceLimitReached',
  'manager user limit reached': 'traccarErrors.userLimitReached',
  'user limit reached': 'traccarErrors.userLimitReached',
  'user is disabled': 'traccarErrors.userDisabled',
  'user has expired': 'traccarErrors.userExpired',
  'user authorization failed': 'traccarErrors.authorizationFailed',
  'registration disabled': 'traccarErrors.registrationDisabled',
  'sharing is disabled': 'traccarErrors.sharingDisabled',
  unauthorized: 'traccarErrors.unauthorized',
  'traccar server unreachable': 'traccarErrors.serverUnreachable',
};

/** `SecurityException: `, `WebApplicationException: `, `java.lang.IllegalArgumentException: ` … at the start. */
const EXCEPTION_PREFIX = /^(?:[A-Za-z_$][\w$]*\.)*[A-Za-z_$][\w$]*(?:Exception|Error):\s*/;

/**
 * What a person reads of a failed request's answer text: its first line without Traccar's exception class, in
 * the user's language when it is one of Traccar's known English refusals (the server's other refusals already
 * come in the asked language); '' when nothing is left. Cut at 300 characters.
 */
export function serverErrorText(text: string | null | undefined, locale?: string | null): string {
  const line = (text ?? '').split('\n')[0].replace(EXCEPTION_PREFIX, '').trim();
  const key = KNOWN_ERRORS[line.replace(/[.!]+$/, '').toLowerCase()];
  if (key) return defaultMessages[localeOf(locale)][key];
  return line.slice(0, 300);
}
