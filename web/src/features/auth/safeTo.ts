/** The `to` query parameter, accepted only as a same-site path (no //host or scheme), else the default. */
export function safeTo(to: string | null | undefined, fallback = '/home'): string {
  if (!to || !to.startsWith('/') || to.startsWith('//') || to.startsWith('/\\')) return fallback;
  if (/^\/(login|motorista|register|share)(\/|\?|$)/.test(to)) return fallback;
  return to;
}
