import { QueryClient } from '@tanstack/react-query';
import { HttpError } from '../api/http.ts';

/** One client for the app: no retries on 4xx (they will not heal), one retry on network errors. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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
