// The types a server lists (issue #33): GET /api{path} answers items with a `type` (notification types, channels,
// a device's command types), kept ten minutes. The notification rule form offers them, the direct message its
// channels among the notificators, the send-command dialog its device's command types.
import { useQuery } from '@tanstack/react-query';
import { api, type Query } from '../api/http.ts';

/** The `type` of each item listed at `path`; undefined until they load (or when it failed). */
export function useServerTypes(path: string, query?: Query, enabled = true): string[] | undefined {
  return useQuery({
    queryKey: ['types', path, query],
    queryFn: () => api.get<Array<{ type: string }>>(path, query),
    select: (items) => items.map((x) => x.type),
    staleTime: 10 * 60_000,
    enabled,
  }).data;
}
