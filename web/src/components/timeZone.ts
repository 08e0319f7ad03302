// The time zone a person's dates are shown and chosen in: the user attribute timezone, else the server's, else the
// browser's. Its own file so that a screen which only needs the zone (the telemetry chart) does not take the period
// picker and its texts with it.
import { isValidTimeZone, type Server, type User } from '@rastro/domain';
import { useMemo } from 'react';
import { useSession } from '../stores/session.ts';

/** The time zone of ranges and dates: user attribute timezone, else server's, else the browser's. */
export function userTimeZone(user: User | null, server: Server | null): string {
  for (const tz of [user?.attributes?.timezone, server?.attributes?.timezone])
    if (typeof tz === 'string' && tz && isValidTimeZone(tz)) return tz;
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The signed-in reader's time zone: userTimeZone of the session's user and server. */
export function useTimeZone(): string {
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  return useMemo(() => userTimeZone(user, server), [user, server]);
}

/** Date (short) and time (with seconds) in the reader's time zone: routes, reports and logs. */
export function useTimeFormat(locale: string): Intl.DateTimeFormat {
  const timeZone = useTimeZone();
  return useMemo(
    () => new Intl.DateTimeFormat(locale, { timeZone, dateStyle: 'short', timeStyle: 'medium' }),
    [locale, timeZone],
  );
}
