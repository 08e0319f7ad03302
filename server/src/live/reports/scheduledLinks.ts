// What a scheduled report is linked to (devices, groups, recipients), for the scheduler and for the web app's
// scheduled-reports screen. Traccar's /api/reports is a "simple" resource with no list of its links and
// GET /api/permissions is for administrators only, so GET /{ns}/scheduled-reports/{id}/links answers any user who
// sees the report, with only the links whose other side that user may see (devices and groups it sees; itself and
// the users it manages; an administrator everything).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { reportLinkOwners } from '../../db/repos/scheduledReports.ts';
import type { SqlDatabase } from '../../db/sql.ts';
import { edge, edgeValue, idParams } from '../../edge.ts';
import { notFound } from '../../errors.ts';
import {
  checkSee,
  managedUserIds,
  objectExists,
  visibleDeviceIds,
  visibleGroupIds,
} from '../../traccar/access.ts';
import { requireUser } from '../../traccar/auth.ts';

export interface ReportLinks {
  deviceIds: number[];
  groupIds: number[];
  userIds: number[];
}

/** Every link of report `id`, by the owner's kind. */
export async function reportLinks(sql: SqlDatabase, id: number): Promise<ReportLinks> {
  const rows = await reportLinkOwners(sql, id);
  const of = (type: string) => rows.filter((r) => r.ownerType === type).map((r) => r.ownerId);
  return { deviceIds: of('device'), groupIds: of('group'), userIds: of('user') };
}

export function registerScheduledReportLinks(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    `/${ctx.config.ns}/scheduled-reports/:id/links`,
    edge({ params: idParams, need: 'signedIn' }),
    async (req) => {
      const user = await requireUser(ctx, req);
      const { id } = edgeValue(idParams, req.params);
      await checkSee(ctx, user, 'report', id);
      if (!(await objectExists(ctx, 'report', id))) throw notFound(`Report ${id} not found`);
      const all = await reportLinks(ctx.store.sql, id);
      if (user.administrator) return all;
      const devices = new Set(await visibleDeviceIds(ctx, user));
      const groups = await visibleGroupIds(ctx, user.id);
      const users = new Set([user.id, ...(user.userLimit !== 0 ? await managedUserIds(ctx, user.id) : [])]);
      return {
        deviceIds: all.deviceIds.filter((d) => devices.has(d)),
        groupIds: all.groupIds.filter((g) => groups.has(g)),
        userIds: all.userIds.filter((u) => users.has(u)),
      };
    },
  );
}
