// The scheduled-report form (packages/domain/src/scheduledReports.ts): a calendar is required, a device or group
// unless it is the devices report, the server's own input rules apply, links come out per kind.
import { describe, expect, it } from 'vitest';
import {
  emptyScheduledReportForm,
  parseScheduledReportForm,
  scheduledReportInput,
  scheduledReportToForm,
} from '../src/index.ts';

describe('scheduled report form', () => {
  it('starts as a summary with the creator as recipient', () => {
    expect(emptyScheduledReportForm(7)).toMatchObject({
      id: 0,
      type: 'summary',
      calendarId: 0,
      userIds: [7],
    });
  });

  it('needs a calendar and a device or group', () => {
    const r = parseScheduledReportForm(emptyScheduledReportForm(7));
    expect(r).toEqual({
      ok: false,
      errors: { calendarId: 'errors.calendarRequired', deviceIds: 'errors.pickDevice' },
    });
  });

  it('refuses an unknown type and an over-long description', () => {
    const r = parseScheduledReportForm({
      ...emptyScheduledReportForm(),
      type: 'geofences',
      description: 'x'.repeat(5000),
      calendarId: 3,
      groupIds: [2],
    });
    expect(r).toEqual({ ok: false, errors: { type: 'errors.typeRequired', description: 'errors.tooLong' } });
  });

  it('gives the report as the server takes it and its links', () => {
    const r = parseScheduledReportForm({
      ...emptyScheduledReportForm(7),
      type: 'trips',
      description: '  Viagens da semana ',
      calendarId: 3,
      deviceIds: [4, 5],
      groupIds: [9],
    });
    expect(r).toEqual({
      ok: true,
      report: { id: 0, type: 'trips', description: 'Viagens da semana', calendarId: 3, attributes: {} },
      links: { deviceIds: [4, 5], groupIds: [9], userIds: [7] },
    });
    if (r.ok) expect(scheduledReportInput.safeParse(r.report).success).toBe(true);
  });

  it('the devices report needs no device and keeps no device links; an empty description is null', () => {
    const r = parseScheduledReportForm({
      ...emptyScheduledReportForm(7),
      type: 'devices',
      calendarId: 3,
      deviceIds: [4],
    });
    expect(r).toMatchObject({
      ok: true,
      report: { type: 'devices', description: null },
      links: { deviceIds: [], groupIds: [], userIds: [7] },
    });
  });

  it('edits from a stored report and its links', () => {
    const v = scheduledReportToForm(
      { id: 5, type: 'events', description: null, calendarId: 2, attributes: { lastPeriodEnd: 'x' } },
      { deviceIds: [1], groupIds: [], userIds: [3] },
    );
    expect(v).toEqual({
      id: 5,
      type: 'events',
      description: '',
      calendarId: 2,
      attributes: { lastPeriodEnd: 'x' },
      deviceIds: [1],
      groupIds: [],
      userIds: [3],
    });
  });
});
