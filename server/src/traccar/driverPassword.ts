// The QR driver password (driver attribute `qrPassword`, SPEC §2 QR check-in): stored only as a scrypt hash and
// never returned. A driver answer carries `qrPasswordSet: true` instead, so the form can say a password exists.
// On a save: a new non-empty password is hashed; an absent or empty one keeps the stored hash; null removes it.
import { hashPasswordSync, verifyPassword } from './passwordHash.ts';
import { parseAttributes, rowToJson, COLUMNS, type Json, type Row } from './model.ts';

export const QR_PASSWORD = 'qrPassword';
export const QR_PASSWORD_SET = 'qrPasswordSet';

const isHash = (v: unknown) => typeof v === 'string' && v.startsWith('scrypt$');

/** Replaces the plain password of `input.attributes` by its hash, or by the stored hash when none was given. */
export function applyQrPassword(input: Record<string, unknown>, existing: Row | null): void {
  const attrs = { ...((input.attributes as Record<string, unknown> | undefined) ?? {}) };
  const stored = existing ? parseAttributes(existing.attributes)[QR_PASSWORD] : undefined;
  const given = attrs[QR_PASSWORD];
  delete attrs[QR_PASSWORD_SET];
  if (given === null) delete attrs[QR_PASSWORD];
  else if (typeof given === 'string' && given !== '' && !isHash(given))
    attrs[QR_PASSWORD] = hashPasswordSync(given);
  else if (isHash(stored)) attrs[QR_PASSWORD] = stored;
  else delete attrs[QR_PASSWORD];
  input.attributes = attrs;
}

/** A driver as the API shows it: the hash left out, `qrPasswordSet` in its place. */
export function driverToJson(row: Row, excludeAttributes: boolean): Json {
  const json = rowToJson(COLUMNS.drivers, row, excludeAttributes);
  const attrs = json.attributes as Record<string, unknown> | undefined;
  if (attrs && QR_PASSWORD in attrs) {
    const { [QR_PASSWORD]: hash, ...rest } = attrs;
    json.attributes = isHash(hash) ? { ...rest, [QR_PASSWORD_SET]: true } : rest;
  }
  return json;
}

/** Whether `password` is the driver's QR password. */
export function verifyQrPassword(row: Row, password: string): Promise<boolean> {
  const hash = parseAttributes(row.attributes)[QR_PASSWORD];
  return verifyPassword(password, typeof hash === 'string' ? hash : null);
}
