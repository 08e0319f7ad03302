// Scheduled reports (Traccar's /api/reports CRUD with a calendar; docs/history-reports.md): every minute, each
// report whose calendar period has just ended is run for that period and mailed as .xlsx to every user linked to
// it who has an e-mail. The report is produced by this server's own GET /api/reports/{type} (app.inject) as that
// user, through a five-minute token revoked right after, so each recipient gets exactly what they may see, in
// their language, time zone and units. The period's end is kept in the report's attributes (`lastPeriodEnd`) so a
// restart never sends a period twice. The mail goes through the mail adapter (SMTP from the environment).
import type { FastifyInstance } from 'fastify';
import {
  XLSX_ACCEPT,
  formatMessage,
  normalizeLocale,
  type MessageKey,
  type MessageLocale,
} from '@rastro/domain';
import type { AppContext } from '../../context.ts';
import {
  calendarData,
  calendarReports,
  mailRecipients,
  setReportAttributes,
} from '../../db/repos/scheduledReports.ts';
import { serverAttributesTextAsync } from '../../db/repos/server.ts';
import { createSessionToken, revokeToken } from '../../traccar/auth.ts';
import { getMailer } from '../../traccar/mailer.ts';
import { parseAttributes } from '../../traccar/model.ts';
import { occurrenceAt, parseCalendar } from '../calendar.ts';
import { registerScheduledReportLinks, reportLinks } from './scheduledLinks.ts';

export const SCHEDULED_TICK_MS = 60_000;
const RUNNABLE = new Set(['events', 'route', 'summary', 'trips', 'stops', 'devices']);
const TYPE_KEYS: Record<string, MessageKey> = {
  events: 'reportSheets.events',
  route: 'reportSheets.route',
  summary: 'reportSheets.summary',
  trips: 'reportSheets.trips',
  stops: 'reportSheets.stops',
  devices: 'reportSheets.devices',
};

interface ReportRow {
  id: number;
  type: string;
  description: string | null;
  calendarId: number;
  attributes: string | null;
}

interface Recipient {
  id: number;
  email: string;
  attributes: string | null;
}

export interface ScheduledRun {
  reportId: number;
  from: string;
  to: string;
  sent: string[];
  failed: string[];
}

export class ScheduledReports {
  constructor(
    private readonly ctx: AppContext,
    private readonly app: FastifyInstance,
  ) {}

  start(): void {
    let running = false;
    const timer = setInterval(() => {
      if (running || !this.ctx.cluster.isLeader()) return; // one process sends them (db/cluster.ts)
      running = true;
      this.runDue(Date.now())
        .catch((err: unknown) => this.ctx.log.error({ err }, 'scheduled reports failed'))
        .finally(() => (running = false));
    }, SCHEDULED_TICK_MS);
    timer.unref();
    this.ctx.onClose.push(() => clearInterval(timer));
  }

  /** Runs every report whose calendar period ended in (previous, now]; returns what was sent. */
  async runDue(now: number, previous = now - SCHEDULED_TICK_MS): Promise<ScheduledRun[]> {
    const sql = this.ctx.store.sql;
    const out: ScheduledRun[] = [];
    for (const r of await calendarReports(sql)) {
      const cal = await calendarData(sql, r.calendarId);
      if (cal === undefined) continue;
      let period: { start: number; end: number } | null;
      try {
        period = occurrenceAt(parseCalendar(cal), previous);
      } catch {
        continue;
      }
      if (!period || period.end > now || period.end <= previous) continue;
      const attrs = parseAttributes(r.attributes);
      const end = new Date(period.end).toISOString();
      if (attrs.lastPeriodEnd === end) continue;
      await setReportAttributes(sql, r.id, JSON.stringify({ ...attrs, lastPeriodEnd: end }));
      if (!RUNNABLE.has(r.type)) {
        this.ctx.log.warn({ reportId: r.id, type: r.type }, 'scheduled report type not supported; skipped');
        continue;
      }
      out.push(await this.run(r, new Date(period.start).toISOString(), end));
    }
    return out;
  }

  private async language(recipient: Recipient): Promise<MessageLocale> {
    const ns = this.ctx.config.ns;
    const server = await serverAttributesTextAsync(this.ctx.store.sql);
    for (const v of [
      parseAttributes(recipient.attributes)[`${ns}.lang`],
      parseAttributes(server)[`${ns}.lang`],
    ]) {
      const l = typeof v === 'string' ? normalizeLocale(v) : null;
      if (l) return l;
    }
    return 'pt-BR';
  }

  /** Produces and mails one report for [from, to) to each recipient. */
  async run(r: ReportRow, from: string, to: string): Promise<ScheduledRun> {
    const sql = this.ctx.store.sql;
    const links = await reportLinks(sql, r.id);
    const query = new URLSearchParams({ from, to });
    for (const id of links.deviceIds) query.append('deviceId', String(id));
    for (const id of links.groupIds) query.append('groupId', String(id));
    const recipients: Recipient[] = await mailRecipients(sql, links.userIds);
    const run: ScheduledRun = { reportId: r.id, from, to, sent: [], failed: [] };
    for (const u of recipients) {
      const token = await createSessionToken(this.ctx, u.id, new Date(Date.now() + 5 * 60_000));
      const lang = await this.language(u);
      try {
        const res = await this.app.inject({
          method: 'GET',
          // the devices report has no period or device list: the recipient's devices as they are now
          url: r.type === 'devices' ? '/api/reports/devices/xlsx' : `/api/reports/${r.type}?${query}`,
          headers: { authorization: `Bearer ${token}`, accept: XLSX_ACCEPT, 'accept-language': lang },
        });
        if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${res.body.slice(0, 200)}`);
        const fmt = new Intl.DateTimeFormat(lang, {
          dateStyle: 'short',
          timeStyle: 'short',
          timeZone: 'UTC',
        });
        const values = {
          name: r.description || formatMessage(TYPE_KEYS[r.type]!, lang),
          type: formatMessage(TYPE_KEYS[r.type]!, lang).toLowerCase(),
          from: `${fmt.format(new Date(from))} UTC`,
          to: `${fmt.format(new Date(to))} UTC`,
        };
        const result = await getMailer(this.ctx).send({
          to: u.email,
          subject: formatMessage('scheduledReport.subject', lang, values),
          body: formatMessage('scheduledReport.body', lang, values),
          attachments: [
            { filename: `report-${r.type}.xlsx`, contentType: XLSX_ACCEPT, content: res.rawPayload },
          ],
        });
        if (!result.sent) throw new Error(result.reason ?? 'mail not sent');
        run.sent.push(u.email);
      } catch (err) {
        this.ctx.log.warn({ err, reportId: r.id, userId: u.id }, 'scheduled report not delivered');
        run.failed.push(u.email);
      } finally {
        await revokeToken(this.ctx, token);
      }
    }
    return run;
  }
}

const schedulers = new WeakMap<AppContext, ScheduledReports>();

export function registerScheduledReports(app: FastifyInstance, ctx: AppContext): ScheduledReports {
  registerScheduledReportLinks(app, ctx);
  const s = new ScheduledReports(ctx, app);
  schedulers.set(ctx, s);
  s.start();
  return s;
}

export const getScheduledReports = (ctx: AppContext) => schedulers.get(ctx);
