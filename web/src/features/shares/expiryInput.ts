// The datetime-local value of the share forms: the browser's local time, minute precision, no zone.

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DDTHH:mm` of an instant in the browser's time zone. */
export function toLocalInput(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The instant of a datetime-local value as ISO, or null when the field is empty or not a date. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const t = new Date(value).getTime();
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

/** Default expiry of a new link: one day from now. */
export const defaultExpiry = (now = Date.now()) => toLocalInput(now + 24 * 3600 * 1000);
