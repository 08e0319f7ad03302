// Scheduled reports (Traccar's /api/reports CRUD; server/src/live/reports/scheduled.ts runs them): the form of the
// web app's "Relatórios agendados" screen and its rules, one zod schema on top of the server's own
// scheduledReportInput. A report runs when its calendar's period ends, so a calendar is required; it covers the
// devices and groups linked to it (all the recipient's devices for the `devices` report, which needs none) and is
// mailed as .xlsx to the users linked to it.
import { z } from 'zod';
import type { Attributes } from './types.ts';
import { SCHEDULED_REPORT_TYPES, scheduledReportInput } from './schemas/entities.ts';

export type ScheduledReportType = (typeof SCHEDULED_REPORT_TYPES)[number];

/** A scheduled report as GET /api/reports returns it. */
export interface ScheduledReport {
  id: number;
  type: string;
  description: string | null;
  calendarId: number;
  attributes: Attributes;
}

/** Its links (GET /{ns}/scheduled-reports/{id}/links). */
export interface ScheduledReportLinks {
  deviceIds: number[];
  groupIds: number[];
  userIds: number[];
}

export interface ScheduledReportFormValues extends ScheduledReportLinks {
  id: number;
  type: string;
  description: string;
  calendarId: number;
  attributes: Attributes;
}

/** The report types the scheduler runs, in the order the form offers them. */
export const SCHEDULED_REPORT_KINDS: readonly ScheduledReportType[] = [
  'summary',
  'trips',
  'stops',
  'events',
  'route',
  'devices',
];

const ids = z.array(z.number().int().positive()).max(10_000);

/** The form: the server's input plus a calendar and, except for the devices report, a device or a group. */
export const scheduledReportForm = scheduledReportInput
  .extend({
    description: z.string().trim().max(4096, 'errors.tooLong'),
    type: z.enum(SCHEDULED_REPORT_TYPES, { message: 'errors.typeRequired' }),
    calendarId: z.number().int().positive('errors.calendarRequired'),
    deviceIds: ids,
    groupIds: ids,
    userIds: ids,
  })
  .refine((f) => f.type === 'devices' || f.deviceIds.length + f.groupIds.length > 0, {
    message: 'errors.pickDevice',
    path: ['deviceIds'],
  });
export type ScheduledReportForm = z.output<typeof scheduledReportForm>;

export const emptyScheduledReportForm = (userId?: number): ScheduledReportFormValues => ({
  id: 0,
  type: 'summary',
  description: '',
  calendarId: 0,
  attributes: {},
  deviceIds: [],
  groupIds: [],
  userIds: userId ? [userId] : [],
});

export function scheduledReportToForm(
  r: ScheduledReport,
  links: ScheduledReportLinks,
): ScheduledReportFormValues {
  return {
    id: r.id,
    type: r.type,
    description: r.description ?? '',
    calendarId: r.calendarId,
    attributes: r.attributes ?? {},
    deviceIds: [...links.deviceIds],
    groupIds: [...links.groupIds],
    userIds: [...links.userIds],
  };
}

export type ScheduledReportParse =
  | { ok: true; report: ScheduledReport; links: ScheduledReportLinks }
  | { ok: false; errors: Record<string, string> };

/** Checks the form; errors by field, as message keys of the screen's texts. */
export function parseScheduledReportForm(v: ScheduledReportFormValues): ScheduledReportParse {
  const r = scheduledReportForm.safeParse(v);
  if (!r.success) {
    const errors: Record<string, string> = {};
    for (const issue of r.error.issues) {
      const field = String(issue.path[0] ?? 'form');
      errors[field] ??= issue.message.startsWith('errors.') ? issue.message : 'errors.invalid';
    }
    return { ok: false, errors };
  }
  const f = r.data;
  return {
    ok: true,
    report: {
      id: f.id,
      type: f.type,
      description: f.description || null,
      calendarId: f.calendarId,
      attributes: v.attributes,
    },
    links: {
      // the devices report covers the recipient's own devices: no device or group links
      deviceIds: f.type === 'devices' ? [] : f.deviceIds,
      groupIds: f.type === 'devices' ? [] : f.groupIds,
      userIds: f.userIds,
    },
  };
}
