// SPEC §8 login error codes and how a failed login response maps to one. Each code's text is the i18n key
// 'loginErrors.<CODE>' (messages.ts).
import type { MessageKey } from './messages.ts';

export const LOGIN_ERROR_CODES = [
  'HTTP_401_UNAUTHORIZED',
  'ACCOUNT_IS_SUSPENDED',
  'ACCOUNT_IS_SUSPENDED_TRUST',
  'ACCOUNT_IS_DISABLED',
  'ACCOUNT_IS_BLOCKED',
  'INVALID_SHARE',
  'USER_DEVICE_LIMIT_REACHED',
  'ACCOUNT_IS_READONLY',
  'ACCOUNT_IS_DEVICE_READONLY',
  'WRITE_ACCESS_DENIE',
  'WRITE_ACCESS_DENIED',
  'INVALID_LOGIN_DATA',
  'INVALID_CREDENTIALS',
  'FILL_ALL_FIELDS',
  'FILL_EMAIL_FIELD',
  'FILL_TOKEN_FIELD',
  'NEW_VERSION_AVAILABLE',
  'REGISTRATION_DISABLED',
  'USER_NOT_AUTHED',
  'action_cancel',
  'CONNECTION_ERROR',
  'UNKNOWN_ERROR',
  'LOGIN_PROCESS_ERROR',
] as const;
export type LoginErrorCode = (typeof LOGIN_ERROR_CODES)[number];

export function isLoginErrorCode(v: string): v is LoginErrorCode {
  return (LOGIN_ERROR_CODES as readonly string[]).includes(v);
}

export function loginErrorKey(code: LoginErrorCode): MessageKey {
  return `loginErrors.${code}`;
}

/**
 * Code from a response text: first line, Java exception prefixes ('pkg.FooException: ') removed, the part
 * before ' - ', uppercased with runs of other characters turned into underscores. '' when nothing is left.
 */
export function codeFromText(text: string): string {
  let line = text.split(/\r?\n/)[0] ?? '';
  line = line.replace(/^(?:[\w.$]*(?:Exception|Error):\s*)+/, '');
  const before = line.split(' - ')[0] ?? '';
  if (before.trim() === 'action_cancel') return 'action_cancel';
  return before
    .trim()
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

export interface LoginFailure {
  code: LoginErrorCode;
  key: MessageKey;
  /** From a response `error` object: a trust unlock is possible. */
  trustAvailable?: boolean;
  /** From a response `error` object: open invoices to show. */
  invoices?: unknown[];
  /** The unrecognised code read from the response, if any. */
  raw?: string;
}

export interface LoginResponseLike {
  status: number;
  /** Body as text or parsed JSON. */
  body?: unknown;
}

/**
 * Maps a failed login. Order: no response ⇒ CONNECTION_ERROR; a body with an `error` field ⇒ its code plus
 * trustAvailable and invoices; HTTP 500 ⇒ ACCOUNT_IS_BLOCKED; a known code in the text before ' - ' ⇒ that code;
 * 401 ⇒ HTTP_401_UNAUTHORIZED; otherwise UNKNOWN_ERROR, or LOGIN_PROCESS_ERROR when the failure happened while
 * processing a successful answer (`stage: 'process'`).
 */
export function parseLoginError(
  response: LoginResponseLike | null | undefined,
  stage: 'request' | 'process' = 'request',
): LoginFailure {
  const make = (code: LoginErrorCode, extra: Partial<LoginFailure> = {}): LoginFailure => ({
    code,
    key: loginErrorKey(code),
    ...extra,
  });
  if (!response) return make(stage === 'process' ? 'LOGIN_PROCESS_ERROR' : 'CONNECTION_ERROR');
  const body = response.body;
  if (body && typeof body === 'object' && !Array.isArray(body) && 'error' in body) {
    const b = body as { error?: unknown; trustAvailable?: unknown; invoices?: unknown };
    const raw = typeof b.error === 'string' ? codeFromText(b.error) : '';
    const extra: Partial<LoginFailure> = {};
    if (b.trustAvailable !== undefined) extra.trustAvailable = !!b.trustAvailable;
    if (Array.isArray(b.invoices)) extra.invoices = b.invoices;
    if (isLoginErrorCode(raw)) return make(raw, extra);
    return make('UNKNOWN_ERROR', { ...extra, raw });
  }
  if (response.status === 500) return make('ACCOUNT_IS_BLOCKED');
  const text = typeof body === 'string' ? codeFromText(body) : '';
  if (isLoginErrorCode(text)) return make(text);
  if (response.status === 401) return make('HTTP_401_UNAUTHORIZED');
  const fallback: LoginErrorCode = stage === 'process' ? 'LOGIN_PROCESS_ERROR' : 'UNKNOWN_ERROR';
  return text ? make(fallback, { raw: text }) : make(fallback);
}
