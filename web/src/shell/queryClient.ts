import { QueryCache, QueryClient } from '@tanstack/react-query';
import { isShared } from '@rastro/domain';
import { HttpError } from '../api/http.ts';
import { useSession } from '../stores/session.ts';

/** A 401 while signed in means the server ended the session: back to the login, returning here afterwards. */
export function onSessionLost(
  err: unknown,
  go: (to: string) => void = (to) => window.location.assign(to),
): void {
  const user = useSession.getState().user;
  // Shared-link guests get their own 'session expired' warning instead.
  if (!(err instanceof HttpError) || err.status !== 401 || !user || isShared(user)) return;
  useSession.getState().clear();
  go(`/login?to=${encodeURIComponent(window.location.pathname + window.location.search)}`);
}

/** One client for the app: no retries on 4xx (they will not heal), one retry on network errors. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (err) => onSessionLost(err) }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, err) =>
          !(err instanceof HttpError && err.status >= 400 && err.status < 500) && count < 1,
      },
    },
  });
}

export const queryClient = createQueryClient();
