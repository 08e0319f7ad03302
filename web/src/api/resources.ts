// ONE generic client for the Traccar entity resources (CONTRACT §4: list with filters, get, create,
// full-replace update, delete) and the TanStack Query hooks every feature uses.
import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { isUpdate } from '@rastro/domain';
import type {
  Calendar,
  Command,
  ComputedAttribute,
  Device,
  Driver,
  Geofence,
  Group,
  Maintenance,
  Notification,
  ScheduledReport,
  Server,
  User,
  ShareRecord,
} from '@rastro/domain';
import { api, ext, type HttpClient, type Query } from './http.ts';
import { useSession } from '../stores/session.ts';

/** The 12 entity types and their shapes, keyed by API path (under /api, except shares under /{ns}). */
export interface ResourceTypes {
  devices: Device;
  groups: Group;
  geofences: Geofence;
  users: User;
  drivers: Driver;
  calendars: Calendar;
  maintenance: Maintenance;
  notifications: Notification;
  'attributes/computed': ComputedAttribute;
  commands: Command;
  /** Shares as the extension API returns them (SPEC §3: id and a token). */
  shares: ShareRecord;
  /** Scheduled reports (Traccar's /api/reports CRUD). */
  reports: ScheduledReport;
}
export type ResourceType = keyof ResourceTypes;

type WithId = { id?: number };

/** Shares live in the extension API (/{ns}/shares, SPEC §7 client A); the rest under /api. */
export const clientFor = (type: ResourceType): HttpClient => (type === 'shares' ? ext : api);

export const resourceClient = {
  list<T extends ResourceType>(type: T, query?: Query): Promise<ResourceTypes[T][]> {
    return clientFor(type).get<ResourceTypes[T][]>(`/${type}`, query);
  },
  /** PUT /{type}/{id} when id > 0, else POST /{type}. */
  save<T extends ResourceType>(type: T, item: Partial<ResourceTypes[T]> & WithId): Promise<ResourceTypes[T]> {
    return isUpdate(item.id)
      ? clientFor(type).put<ResourceTypes[T]>(`/${type}/${item.id}`, item)
      : clientFor(type).post<ResourceTypes[T]>(`/${type}`, { ...item, id: 0 });
  },
  remove(type: ResourceType, id: number): Promise<void> {
    return clientFor(type).del<void>(`/${type}/${id}`);
  },
};

export const resourceKeys = {
  all: (type: ResourceType) => ['resource', type] as const,
  list: (type: ResourceType, query?: Query) => ['resource', type, 'list', query ?? {}] as const,
  item: (type: ResourceType, id: number) => ['resource', type, 'item', id] as const,
};

export function useResourceList<T extends ResourceType>(
  type: T,
  query?: Query,
  options?: Partial<UseQueryOptions<ResourceTypes[T][]>>,
) {
  return useQuery({
    queryKey: resourceKeys.list(type, query),
    queryFn: () => resourceClient.list(type, query),
    ...options,
  });
}

/** A change to a catalogue that refreshes its lists (and items) once done. */
function useResourceMutation<V, R>(type: ResourceType, mutationFn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => qc.invalidateQueries({ queryKey: resourceKeys.all(type) }),
  });
}

export const useSaveResource = <T extends ResourceType>(type: T) =>
  useResourceMutation(type, (item: Partial<ResourceTypes[T]> & WithId) => resourceClient.save(type, item));

export const useDeleteResource = (type: ResourceType) =>
  useResourceMutation(type, (id: number) => resourceClient.remove(type, id));

/** GET /api/server with its licence headers (SPEC §6), into the session store. */
export async function fetchServer(): Promise<Server> {
  const res = await api.request<Server>('GET', '/server');
  useSession.getState().setServer(res.data, {
    licensemode: res.headers.get('licensemode'),
    devicelimit: res.headers.get('devicelimit'),
  });
  return res.data;
}
