// SPEC §4/§9 shared-link guests: the countdown to link expiry that replaces the name in the header.

export type CountdownUnit = 'days' | 'hours' | 'minutes' | 'seconds';

export interface Countdown {
  expired: boolean;
  unit: CountdownUnit;
  /** Whole units left (floor). */
  value: number;
  /** Seconds left (never negative). */
  seconds: number;
}

/** Days when over 86400 s, hours when over 3600 s, minutes when over 60 s, else seconds; ≤ 0 ⇒ expired. */
export function countdown(secondsLeft: number): Countdown {
  const s = Number.isFinite(secondsLeft) ? Math.max(0, Math.floor(secondsLeft)) : 0;
  if (s <= 0) return { expired: true, unit: 'seconds', value: 0, seconds: 0 };
  if (s > 86_400) return { expired: false, unit: 'days', value: Math.floor(s / 86_400), seconds: s };
  if (s > 3_600) return { expired: false, unit: 'hours', value: Math.floor(s / 3_600), seconds: s };
  if (s > 60) return { expired: false, unit: 'minutes', value: Math.floor(s / 60), seconds: s };
  return { expired: false, unit: 'seconds', value: s, seconds: s };
}

/** Countdown to an ISO expirationTime from `nowMs`; missing/invalid expiration ⇒ null (no countdown). */
export function countdownTo(expirationTime: string | null | undefined, nowMs: number): Countdown | null {
  if (!expirationTime) return null;
  const t = Date.parse(expirationTime);
  if (Number.isNaN(t)) return null;
  return countdown((t - nowMs) / 1000);
}

/** i18n key of the countdown label, with {{count}} = value. */
export function countdownKey(c: Countdown): 'share.expired' | `share.remaining.${CountdownUnit}` {
  return c.expired ? 'share.expired' : `share.remaining.${c.unit}`;
}
