// Links that open a report already filled in and run (the dashboard's figures link to the report that explains
// them): /reports/{kind}?deviceId=…&groupId=…&from=…&to=…[&type=…]. The report screen reads them back with
// readReportLink; anything malformed is dropped, so a hand-edited link opens an empty form, never an error.
import { ID_LIST_MAX, parseIdList } from './idList.ts';

export const REPORT_ROUTE_KINDS = ['resume', 'travels', 'stops', 'events', 'history'] as const;
export type ReportRouteKind = (typeof REPORT_ROUTE_KINDS)[number];

export interface ReportLink {
  deviceIds: number[];
  groupIds: number[];
  /** ISO instants */
  from: string;
  to: string;
  /** Event types (events report only). */
  types?: string[];
}

export function reportLink(kind: ReportRouteKind, l: ReportLink): string {
  const params = new URLSearchParams();
  for (const id of l.deviceIds) params.append('deviceId', String(id));
  for (const id of l.groupIds) params.append('groupId', String(id));
  params.set('from', l.from);
  params.set('to', l.to);
  for (const t of l.types ?? []) params.append('type', t);
  return `/reports/${kind}?${params.toString()}`;
}

/** The valid ids of a repeated parameter (idList.ts's rule); a link drops the rest instead of failing. */
const positiveIds = (values: string[]) => parseIdList(values).ids.slice(0, ID_LIST_MAX);

/** The report form a link asks for, or null when it names no valid period. */
export function readReportLink(search: string | URLSearchParams): ReportLink | null {
  const params = typeof search === 'string' ? new URLSearchParams(search) : search;
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const a = Date.parse(from);
  const b = Date.parse(to);
  if (!Number.isFinite(a) || !Number.isFinite(b) || a > b) return null;
  const types = params
    .getAll('type')
    .filter((t) => /^[A-Za-z]{1,40}$/.test(t))
    .slice(0, 20);
  return {
    deviceIds: positiveIds(params.getAll('deviceId')),
    groupIds: positiveIds(params.getAll('groupId')),
    from: new Date(a).toISOString(),
    to: new Date(b).toISOString(),
    ...(types.length ? { types } : {}),
  };
}
