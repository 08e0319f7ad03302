// How a report leaves the server besides JSON: as an .xlsx answer, or mailed to the caller as an .xlsx
// attachment (Traccar's "send by e-mail"), in the caller's units, time zone and language.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { formatMessage, XLSX_ACCEPT, type MessageKey, type ReportRow, type ReportType } from '@rastro/domain';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { invalidInput } from '../../invalid.ts';
import { requestLanguage } from '../../refusal.ts';
import { getMailer } from '../../traccar/mailer.ts';
import type { UserRow } from '../../traccar/auth.ts';
import type { LiveCore } from '../ingest.ts';
import type { ReportDevice } from './compute.ts';
import { reportTimeZone } from './scope.ts';
import { reportWorkbook } from './xlsx.ts';

/** The report types' names in the messages (mail subject), as the Excel sheets name them. */
const REPORT_TYPE_KEYS: Partial<Record<ReportType, MessageKey>> = {
  route: 'reportSheets.route',
  events: 'reportSheets.events',
  trips: 'reportSheets.trips',
  stops: 'reportSheets.stops',
  summary: 'reportSheets.summary',
};

/** The Excel and mail answers of reports, bound to the app's context and live core. */
export function reportOutputs(ctx: AppContext, live: LiveCore) {
  const timeZone = (user: UserRow) => reportTimeZone(live, user);

  /** The .xlsx of a report, in the caller's units, time zone and language (as Traccar's xlsx reports). */
  function workbook(
    req: FastifyRequest,
    type: ReportType,
    user: UserRow,
    devices: ReportDevice[],
    rows: unknown[],
  ): Promise<Buffer> {
    const cache = live.cache; // as last read (the report's resolve() made it fresh): formatting only
    const names = new Map(devices.map((d) => [d.id, d.name]));
    return reportWorkbook(type, rows as ReportRow[], {
      userAttributes: cache.userAttrs.get(user.id) ?? {},
      serverAttributes: cache.serverAttrs,
      lang: requestLanguage(ctx, req, user),
      timeZone: timeZone(user),
      deviceName: (id) => names.get(id) ?? String(id),
    });
  }

  /** Excel answer of a report. */
  async function sendXlsx(
    reply: FastifyReply,
    type: ReportType,
    user: UserRow,
    devices: ReportDevice[],
    rows: unknown[],
  ) {
    const body = await workbook(reply.request, type, user, devices, rows);
    return reply
      .type(XLSX_ACCEPT)
      .header('content-disposition', `attachment; filename="report-${type}.xlsx"`)
      .send(body);
  }

  /**
   * GET /api/reports/{type}/mail (Traccar's "send by e-mail"): the .xlsx mailed to the caller's own address through
   * the mail adapter, then 204. Checked before any work: a caller without an e-mail address or a server without
   * mail gets a translated 400; a refused delivery is 502 with the reason.
   */
  async function mailXlsx(
    req: FastifyRequest,
    reply: FastifyReply,
    type: ReportType,
    r: { user: UserRow; devices: ReportDevice[]; rows: unknown[] },
  ) {
    return mailWorkbook(req, reply, r.user, REPORT_TYPE_KEYS[type] ?? null, type, () =>
      workbook(req, type, r.user, r.devices, r.rows),
    );
  }

  /** Mails the workbook `content` makes (attachment report-{file}.xlsx, subject naming `typeKey`), then 204. */
  async function mailWorkbook(
    req: FastifyRequest,
    reply: FastifyReply,
    user: UserRow,
    typeKey: MessageKey | null,
    file: string,
    make: () => Promise<Buffer>,
  ) {
    const mailer = getMailer(ctx);
    if (!mailer.configured) throw invalidInput(ctx, req, user, 'reportMail.notConfigured');
    if (!user.email.includes('@')) throw invalidInput(ctx, req, user, 'reportMail.noAddress');
    const lang = requestLanguage(ctx, req, user);
    const typeName = typeKey ? formatMessage(typeKey, lang) : file;
    const content = await make();
    let result: { sent: boolean; reason?: string };
    try {
      result = await mailer.send({
        to: user.email,
        subject: formatMessage('reportMail.subject', lang, { type: typeName.toLowerCase() }),
        body: formatMessage('reportMail.body', lang, { type: typeName.toLowerCase() }),
        attachments: [{ filename: `report-${file}.xlsx`, contentType: XLSX_ACCEPT, content }],
      });
    } catch (err) {
      ctx.log.warn({ err, userId: user.id, type: file }, 'report mail not sent');
      result = { sent: false, reason: err instanceof Error ? err.message : String(err) };
    }
    if (!result.sent)
      throw new ApiError(
        502,
        `Mail not sent: ${result.reason ?? 'unknown reason'}`,
        'WebApplicationException',
      );
    return reply.status(204).send();
  }

  return { sendXlsx, mailXlsx, mailWorkbook };
}
