// Traccar's English refusals ("Write access denied", …) as people read them (issue #29): without their Java
// exception class, translated where known. Its own module, with only the refusals' wordings, because the web's
// HTTP client (in every page's first download) uses it: the whole message catalogue would come along otherwise.
import { TRACCAR_ERROR_MESSAGES } from './messageCatalog/traccarErrors.ts';
import { normalizeLocale } from './locale.ts';

/** Traccar's English refusal texts (and this server's same-worded ones) ⇒ their message keys. */
const KNOWN_ERRORS: Readonly<Record<string, keyof typeof TRACCAR_ERROR_MESSAGES>> = {
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
  if (key) return TRACCAR_ERROR_MESSAGES[key][normalizeLocale(locale) ?? 'pt-BR'];
  return line.slice(0, 300);
}
