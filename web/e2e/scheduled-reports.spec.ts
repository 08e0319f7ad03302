// Scheduled reports (issue #28): from the reports menu, an administrator creates one (type, description, calendar,
// a device), edits it (description, a second device), finds it with the search and deletes it, each step checked
// against the API (/api/reports and its /api/permissions links); a read-only user sees the list without any way to
// change it, and the server refuses its write. Everything created is deleted.
import type { APIRequestContext, Page } from '@playwright/test';
import { accounts, expect, loginAs, test, useOfflineMap } from './fixtures.ts';
import { tag } from './map-helpers.ts';

interface Dev {
  id: number;
  name: string;
  uniqueId: string;
}
interface Report {
  id: number;
  type: string;
  description: string | null;
  calendarId: number;
}

const ICS = Buffer.from(
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Rastro//e2e//EN',
    'BEGIN:VEVENT',
    'UID:scheduled@rastro',
    'DTSTART:20240501T000000Z',
    'DTEND:20240502T000000Z',
    'RRULE:FREQ=DAILY',
    'END:VEVENT',
    'END:VCALENDAR',
  ].join('\r\n'),
).toString('base64');

async function json<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path);
  expect(res.status()).toBe(200);
  return (await res.json()) as T;
}

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

const linkedDevices = async (request: APIRequestContext, reportId: number) =>
  (await json<Array<{ deviceId: number }>>(request, `/api/permissions?deviceId=0&reportId=${reportId}`)).map(
    (l) => l.deviceId,
  );

test.use({ actionTimeout: 20_000 });

async function openScheduled(page: Page) {
  await page.goto('/reports');
  await page.getByTestId('reports-scheduled').click();
  await expect(page.getByRole('dialog', { name: 'Relatórios agendados' })).toBeVisible();
}

test('scheduled reports: create, edit, link a device, search and delete as administrator; read-only sees only', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  const t = tag();
  const devices = await json<Dev[]>(page.request, '/api/devices');
  const d1 = devices.find((d) => d.uniqueId === 'rastro-0001')!;
  const d2 = devices.find((d) => d.uniqueId === 'rastro-0002')!;
  const calendar = (await (
    await page.request.post('/api/calendars', { data: { name: `Diário ${t}`, data: ICS } })
  ).json()) as { id: number };
  let reportId = 0;
  try {
    await openScheduled(page);
    await page.getByTestId('scheduled-add').click();
    await page.getByTestId('scheduled-save').click();
    await expect(page.getByText('Escolha um calendário')).toBeVisible();
    await expect(page.getByText('Escolha ao menos um dispositivo ou grupo')).toBeVisible();

    await pick(page, 'scheduled-type', 'Viagens');
    await page.getByTestId('scheduled-description').fill(`Viagens ${t}`);
    await pick(page, 'scheduled-calendar', `Diário ${t}`);
    await pick(page, 'scheduled-devices', d1.name);
    await page.getByTestId('scheduled-description').click(); // closes the list
    await page.getByTestId('scheduled-save').click();
    await expect(page.getByText('Relatório agendado salvo')).toBeVisible();
    await expect(page.getByTestId('scheduled-form')).toHaveCount(0);

    const created = (await json<Report[]>(page.request, '/api/reports')).find(
      (r) => r.description === `Viagens ${t}`,
    );
    expect(created).toMatchObject({ type: 'trips', calendarId: calendar.id });
    reportId = created!.id;
    expect(await linkedDevices(page.request, reportId)).toEqual([d1.id]);

    const row = page.locator(`[data-testid="scheduled-row"][data-report-id="${reportId}"]`);
    await expect(row).toContainText('Viagens');
    await expect(row).toContainText(`Diário ${t}`);
    await row.getByTestId('scheduled-edit').click();
    await expect(page.getByTestId('scheduled-description')).toHaveValue(`Viagens ${t}`);
    await page.getByTestId('scheduled-description').fill(`Viagens editado ${t}`);
    await pick(page, 'scheduled-devices', d2.name);
    await page.getByTestId('scheduled-description').click(); // closes the list
    await page.getByTestId('scheduled-save').click();
    await expect(page.getByText('Relatório agendado salvo').first()).toBeVisible();
    await expect(row).toContainText(`Viagens editado ${t}`);
    expect((await json<Report>(page.request, `/api/reports/${reportId}`)).description).toBe(
      `Viagens editado ${t}`,
    );
    expect((await linkedDevices(page.request, reportId)).sort((a, b) => a - b)).toEqual(
      [d1.id, d2.id].sort((a, b) => a - b),
    );

    await page.getByTestId('scheduled-search').fill(`editado ${t}`);
    await expect(page.getByTestId('scheduled-row')).toHaveCount(1);
    await page.getByTestId('scheduled-search').fill(`nada ${t}`);
    await expect(page.getByTestId('scheduled-empty')).toBeVisible();
    await page.getByTestId('scheduled-search').fill('');

    // read-only: linked to the report, sees it, cannot add, edit or delete; the server refuses the write
    const ro = (await json<Array<{ id: number; email: string }>>(page.request, '/api/users')).find(
      (u) => u.email === accounts.readonly.email,
    )!;
    const linked = await page.request.post('/api/permissions', { data: { userId: ro.id, reportId } });
    expect(linked.status()).toBe(204);
    const context = await browser.newContext({ locale: 'pt-BR' });
    try {
      const roPage = await context.newPage();
      await useOfflineMap(roPage);
      await loginAs(roPage, accounts.readonly.email, accounts.readonly.password);
      await openScheduled(roPage);
      const roRow = roPage.locator(`[data-testid="scheduled-row"][data-report-id="${reportId}"]`);
      await expect(roRow).toContainText(`Viagens editado ${t}`);
      await expect(roPage.getByTestId('scheduled-add')).toHaveCount(0);
      await expect(roRow.getByTestId('scheduled-edit')).toHaveCount(0);
      await expect(roRow.getByTestId('scheduled-delete')).toHaveCount(0);
      const refused = await roPage.request.post('/api/reports', {
        data: { type: 'summary', description: `ro ${t}`, calendarId: calendar.id },
      });
      expect(refused.status()).toBe(400);
      expect(await refused.text()).toContain('Write access denied');
    } finally {
      await context.close();
    }

    await row.getByTestId('scheduled-delete').click();
    await expect(page.getByTestId('scheduled-delete-confirm')).toContainText(`Viagens editado ${t}`);
    await page.getByTestId('scheduled-delete-yes').click();
    await expect(page.getByText('Relatório agendado excluído')).toBeVisible();
    await expect(row).toHaveCount(0);
    expect((await json<Report[]>(page.request, '/api/reports')).some((r) => r.id === reportId)).toBe(false);
    reportId = 0;
  } finally {
    if (reportId) await page.request.delete(`/api/reports/${reportId}`);
    await page.request.delete(`/api/calendars/${calendar.id}`);
  }
});
