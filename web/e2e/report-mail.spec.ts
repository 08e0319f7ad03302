// "By e-mail" on a report (GET /api/reports/{type}/mail, issue #12): a user with an e-mail address runs the
// summary, sends it, and the local SMTP server receives the .xlsx through the server's real mail client. The
// button is not offered where the server has no mail (the shared e2e server has none).
import { accounts, expect, loginAs, startIsolatedServer, test } from './fixtures.ts';
import { startFakeSmtp } from './fake-smtp.ts';

test('a report is mailed as .xlsx to the user who asks for it', async ({ page }) => {
  test.setTimeout(150_000);
  const smtp = await startFakeSmtp();
  const server = await startIsolatedServer({
    SIM_DEVICES: '2',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'rastro@example.com',
  });
  try {
    const admin = { authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` };
    const created = await page.request.post(`${server.url}/api/users`, {
      headers: admin,
      data: { name: 'Mail Person', email: 'mail.person@example.com', password: 'secret-1' },
    });
    expect(created.ok()).toBe(true);
    const person = (await created.json()) as { id: number };
    const devices = (await (
      await page.request.get(`${server.url}/api/devices?all=true`, { headers: admin })
    ).json()) as Array<{ id: number; name: string }>;
    const device = devices[0]!;
    const linked = await page.request.post(`${server.url}/api/permissions`, {
      headers: admin,
      data: { userId: person.id, deviceId: device.id },
    });
    expect(linked.ok()).toBe(true);

    await page.request.post(`${server.url}/api/session`, {
      form: { email: 'mail.person@example.com', password: 'secret-1' },
    });
    await page.goto(`${server.url}/reports/resume`);
    await expect(page.getByTestId('report-view-resume')).toBeVisible();
    await page.getByTestId('report-devices').click();
    await page.getByRole('option', { name: device.name, exact: true }).click();
    await page.keyboard.press('Escape');
    await page.getByTestId('report-period-select').click();
    await page.getByRole('option', { name: 'Ontem', exact: true }).click();
    await page.getByTestId('report-run').click();
    await expect(page.getByTestId('report-row').first()).toBeVisible();
    await page.getByTestId('report-mail').click();
    await expect(page.getByText('Relatório enviado para mail.person@example.com')).toBeVisible();
    const mail = await smtp.waitFor('mail.person@example.com');
    expect(mail.subject).toBe('Rastro: relatório de resumo');
    expect(mail.body).toContain('report-summary.xlsx');
  } finally {
    await server.stop();
    await smtp.close();
  }
});

test('no "by e-mail" where the server has no mail', async ({ page }) => {
  await loginAs(page, accounts.manager.email, accounts.manager.password);
  await page.goto('/reports/resume');
  await expect(page.getByTestId('report-run')).toBeVisible();
  await expect(page.getByTestId('report-excel')).toBeVisible();
  await expect(page.getByTestId('report-mail')).toHaveCount(0);
});
