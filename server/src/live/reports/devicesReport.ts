// GET /api/reports/devices/{xlsx,mail}: the caller's devices with their latest state (Traccar's devices report,
// Excel only).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { XLSX_ACCEPT, type DeviceReportRow } from '@rastro/domain';
import type { AppContext } from '../../context.ts';
import { edge } from '../../edge.ts';
import { requestLanguage } from '../../refusal.ts';
import { checkRestriction } from '../../traccar/access.ts';
import { requireUser, type UserRow } from '../../traccar/auth.ts';
import type { LiveCore } from '../ingest.ts';
import { reportOutputs } from './outputs.ts';
import { reportDevices, reportTimeZone } from './scope.ts';
import { devicesWorkbook } from './xlsx.ts';

export function registerDevicesReport(app: FastifyInstance, ctx: AppContext, live: LiveCore): void {
  const { mailWorkbook } = reportOutputs(ctx, live);
  const timeZone = (user: UserRow) => reportTimeZone(live, user);

  /**
   * GET /api/reports/devices/{xlsx|mail} (Traccar's devices report): every device the caller sees (linked directly
   * or through groups, as their device list) with its group, status, last update and latest position, in the
   * caller's language, units and time zone. Refused like every report when reports are disabled.
   */
  async function devicesReport(req: FastifyRequest) {
    const user = await requireUser(ctx, req);
    await checkRestriction(ctx, user, 'disableReports');
    const rows: DeviceReportRow[] = [];
    const devices = await reportDevices(ctx, live, user, { deviceId: [], groupId: [] });
    const cache = live.cache; // as reportDevices made it fresh
    await live.loadLatestAsync(devices.map((d) => d.id)); // their latest positions, on the pool where memory lacks them
    for (const d of devices) {
      const device = live.deviceJson(d.id);
      if (!device) continue;
      const p = live.latestInMemory(d.id);
      rows.push({
        device,
        groupName: cache.groups.get(device.groupId)?.name ?? null,
        position: p ? { ...p, fixTime: new Date(p.fixTime).toISOString() } : null,
      });
    }
    return {
      user,
      make: () =>
        devicesWorkbook(rows, {
          userAttributes: cache.userAttrs.get(user.id) ?? {},
          serverAttributes: cache.serverAttrs,
          lang: requestLanguage(ctx, req, user),
          timeZone: timeZone(user),
          deviceName: (id) => cache.device(id)?.name ?? String(id),
        }),
    };
  }
  // the devices report takes no query: every device the caller sees (reports.view, the table)
  const devicesEdge = edge({ need: 'table' });
  app.get('/api/reports/devices/xlsx', devicesEdge, async (req, reply) => {
    const r = await devicesReport(req);
    return reply
      .type(XLSX_ACCEPT)
      .header('content-disposition', 'attachment; filename="report-devices.xlsx"')
      .send(await r.make());
  });
  app.get('/api/reports/devices/mail', devicesEdge, async (req, reply) => {
    const r = await devicesReport(req);
    return mailWorkbook(req, reply, r.user, 'reportSheets.devices', 'devices', r.make);
  });
}
