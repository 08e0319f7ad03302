// The links of a scheduled report (server/src/live/reports/scheduledLinks.ts) for the web app's screen:
// GET /{ns}/scheduled-reports/{id}/links gives devices, groups and recipients; a non-administrator sees only the
// links whose other side it sees, and nothing of a report it does not see.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type TestApp,
} from '../helpers/index.ts';

describe('scheduled report links', () => {
  let t: TestApp;
  let ns: string;
  beforeAll(async () => {
    t = await makeTestApp();
    ns = t.ctx.config.ns;
  });
  afterAll(() => t.close());

  it('lists devices, groups and recipients; a user sees only its side', async () => {
    const ana = await createUser(t);
    const mine = await createDevice(t);
    const other = await createDevice(t);
    await link(t, { userId: ana.id, deviceId: mine.id });
    const group = await createObject(t, 'groups', { name: 'Norte' });
    const report = await createObject(t, 'reports', { type: 'trips', description: 'Viagens' }, ana.cookie);
    await link(t, { deviceId: mine.id, reportId: report.id });
    await link(t, { deviceId: other.id, reportId: report.id });
    await link(t, { groupId: group.id, reportId: report.id });

    const asAdmin = expectStatus(
      await api(t.app, t.admin, 'GET', `/${ns}/scheduled-reports/${report.id}/links`),
      200,
    );
    expect(asAdmin).toEqual({
      deviceIds: [mine.id, other.id].sort((a, b) => a - b),
      groupIds: [group.id],
      userIds: [ana.id],
    });
    const asAna = expectStatus(
      await api(t.app, ana.cookie, 'GET', `/${ns}/scheduled-reports/${report.id}/links`),
      200,
    );
    expect(asAna).toEqual({ deviceIds: [mine.id], groupIds: [], userIds: [ana.id] });
  });

  it('refuses a report the caller does not see, 404 for a missing one, 400 for a bad id', async () => {
    const bia = await createUser(t);
    const report = await createObject(t, 'reports', { type: 'summary', description: 'Resumo' });
    const refused = await api(t.app, bia.cookie, 'GET', `/${ns}/scheduled-reports/${report.id}/links`);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('access denied');
    expect((await api(t.app, t.admin, 'GET', `/${ns}/scheduled-reports/999999/links`)).statusCode).toBe(404);
    expect((await api(t.app, t.admin, 'GET', `/${ns}/scheduled-reports/abc/links`)).statusCode).toBe(400);
    expect((await api(t.app, null, 'GET', `/${ns}/scheduled-reports/${report.id}/links`)).statusCode).toBe(
      401,
    );
  });
});
