// The links of a scheduled report: read with GET /{ns}/scheduled-reports/{id}/links (only what the caller sees),
// changed with /api/permissions/bulk (one call per kind and direction), so devices, groups and recipients of the
// form end up linked to the report and nothing else the caller sees stays linked.
import { linkChanges, type ScheduledReportLinks } from '@rastro/domain';
import { api, ext } from '../../api/http.ts';

export const scheduledLinksKey = (id: number) => ['scheduled-report-links', id] as const;

export function fetchScheduledLinks(id: number): Promise<ScheduledReportLinks> {
  return ext.get<ScheduledReportLinks>(`/scheduled-reports/${id}/links`);
}

const KINDS = [
  ['deviceIds', 'deviceId'],
  ['groupIds', 'groupId'],
  ['userIds', 'userId'],
] as const;

/** Links and unlinks report `reportId` to go from `before` to `after`. */
export async function applyScheduledLinks(
  reportId: number,
  before: ScheduledReportLinks,
  after: ScheduledReportLinks,
): Promise<void> {
  for (const [field, key] of KINDS) {
    const { add, remove } = linkChanges(before[field], after[field]);
    const body = (ids: number[]) => ids.map((id) => ({ [key]: id, reportId }));
    if (add.length) await api.post('/permissions/bulk', body(add));
    if (remove.length) await api.request('DELETE', '/permissions/bulk', { body: body(remove) });
  }
}
