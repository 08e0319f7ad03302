// SPEC §9 business constants and limits (durations in ms unless the name says otherwise).

export const SOCKET_RECONNECT_MS = 5_000;
export const LOADER_SCRIPT_TIMEOUT_MS = 120_000;
export const POSITIONS_BATCH_SIZE = 500;
/** Client A (/{ns}) and client B (/api) timeouts. */
export const CLIENT_A_TIMEOUT_MS = 30_000;
export const CLIENT_B_TIMEOUT_MS = 60_000;
export const MOBILE_MAX_WIDTH_PX = 768;
export const HEADER_REFRESH_MS = 60_000;
export const REPORT_DEFAULT_PAGE = 1;
export const REPORT_DEFAULT_LIMIT = 25;
export const CHANGELOG_DIALOG_WIDTH = 750;
export const CHANNEL_VALUE_CUT = 20;
export const CHANNEL_VALUE_CUT_WIDE = 30;
export const RESULT_BODY_CUT = 100;
export const IMPORT_PREVIEW_ROWS = 50;
export const CUSTOM_MESSAGES_PURGE_MS = 300_000;
export const SUBJECT_MAX = 100;
export const SESSION_TOKEN_LENGTH = 20;
export const USER_EDIT_LOAD_RETRIES = 3;
export const USER_EDIT_LOAD_TIMEOUT_MS = 3_000;

const MOBILE_UA = /Android|webOS|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini|Mobile/i;

/** Mobile: width 768 px or below, or a mobile user agent. */
export function isMobile(width: number, userAgent = ''): boolean {
  return width <= MOBILE_MAX_WIDTH_PX || MOBILE_UA.test(userAgent);
}

/** Splits ids into batches of 500 for GET /positions?id=…. */
export function batchIds<T>(ids: readonly T[], size: number = POSITIONS_BATCH_SIZE): T[][] {
  if (!Number.isInteger(size) || size <= 0) throw new RangeError('batch size must be a positive integer');
  const out: T[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * 20-character session token from the given random source (numbers in [0,1)); the caller passes a
 * cryptographic source such as `() => crypto.getRandomValues(new Uint32Array(1))[0] / 2 ** 32`.
 */
export function makeSessionToken(random: () => number): string {
  let s = '';
  for (let i = 0; i < SESSION_TOKEN_LENGTH; i++) {
    const r = random();
    const idx = Math.min(TOKEN_ALPHABET.length - 1, Math.max(0, Math.floor(r * TOKEN_ALPHABET.length)));
    s += TOKEN_ALPHABET[idx];
  }
  return s;
}
