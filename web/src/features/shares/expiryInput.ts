// The datetime-local value of the share forms: the browser's local time, minute precision, no zone
// (components/DateField.tsx toLocalInput writes it).
import { toLocalInput } from '../../components/DateField.tsx';

/** The instant of a datetime-local value as ISO, or null when the field is empty or not a date. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const t = new Date(value).getTime();
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** Default expiry of a new link: one day from now. */
export const defaultExpiry = (now = Date.now()) => toLocalInput(new Date(now + 24 * 3600 * 1000));
