// The fleet dashboard and the scores (issue #14, docs/insights.md): the manager opens /dashboard from the side menu,
// reads the period's figures from the demo fleet's backfilled history, narrows them to one vehicle, follows a
// figure and a chart bar to the reports that explain them, ranks drivers and vehicles, opens a driver's breakdown
// and downloads the ranking in Excel. A user whose reports are disabled gets no menu entry and the server's refusal.
import { readFileSync } from 'node:fs';
import { accounts, expect, loginAs, test } from './fixtures.ts';

test('figures, filters and links to the reports', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAs(page, accounts.manager.email, accounts.manager.password);
  await page.goto('/home');
  await page.getByTestId('menu-link-dashboard').first().click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const distance = page.getByTestId('figure-distance').getByTestId('figure-value');
  await expect(distance).not.toHaveAttribute('data-value', '0');
  const fleetDistance = Number(await distance.getAttribute('data-value'));
  expect(fleetDistance).toBeGreaterThan(0);
  await expect(page.getByTestId('figure-drivingTime').getByTestId('figure-value')).not.toHaveAttribute(
    'data-value',
    '0',
  );
  await expect(page.getByTestId('dashboard-status')).toContainText('online');
  await expect(page.getByTestId('chart-days').locator('canvas').first()).toBeVisible();

  // unfiltered, a figure's report covers all of the user's vehicles and runs at once
  await page.getByTestId('figure-distance').getByTestId('figure-link').click();
  await expect(page).toHaveURL(/\/reports\/resume\?from=/);
  await expect(page.getByTestId('report-all-devices')).toBeVisible();
  await expect(page.getByTestId('report-row').first()).toBeVisible();
  await expect(page.getByTestId('report-error')).toHaveCount(0);
  await page.goBack();

  // one vehicle: its distance is part of the fleet's
  await expect(page.getByTestId('chart-utilisation')).toContainText(
    /Utilização: os \d+ veículos mais usados/,
  );
  await page.getByTestId('chart-utilisation').getByText('Dados').click();
  const utilisation = page.getByTestId('chart-utilisation-data');
  const firstVehicle = (await utilisation.getByRole('row').first().getByRole('cell').first().textContent())!;
  await page.getByTestId('dashboard-devices').click();
  await page.getByRole('option', { name: firstVehicle, exact: true }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('chart-utilisation-data').locator('tr')).toHaveCount(1);
  const one = Number(await distance.getAttribute('data-value'));
  expect(one).toBeLessThanOrEqual(fleetDistance);

  // the overspeed figure opens the events report, filtered to overspeeds, already run
  await page.getByTestId('figure-overspeeds').getByTestId('figure-link').click();
  await expect(page).toHaveURL(/\/reports\/events\?deviceId=\d+&from=.*&type=deviceOverspeed/);
  await expect(page.getByTestId('report-types')).toContainText('Excesso de velocidade');
  await expect(page.getByTestId('report-total').or(page.getByTestId('report-empty'))).toBeVisible();
  await page.goBack();
  await page.screenshot({ path: 'test-results/dashboard.png', fullPage: true });

  // a bar of the utilisation chart opens that vehicle's trips
  await page.getByTestId('chart-utilisation').getByText('Dados').click();
  await page.getByTestId('chart-utilisation-data').getByRole('link', { name: firstVehicle }).click();
  await expect(page).toHaveURL(/\/reports\/travels\?deviceId=\d+&from=/);
  await expect(page.getByTestId('report-row').first()).toBeVisible();
});

test('driver and vehicle scores: ranking, breakdown and Excel', async ({ page }) => {
  test.setTimeout(120_000);
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  await page.goto('/dashboard');
  await page.getByTestId('tab-scores').click();
  const rows = page.getByTestId('score-row');
  await expect(rows.first()).toBeVisible();
  // best first
  const scores = (await page
    .getByTestId('score-value')
    .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-value')))) as string[];
  const numeric = scores.filter((s) => s !== '').map(Number);
  expect(numeric.length).toBeGreaterThan(0);
  expect([...numeric].sort((a, b) => b - a)).toEqual(numeric);

  await rows.first().getByTestId('score-open').click();
  const breakdown = page.getByTestId('score-breakdown');
  await expect(breakdown).toBeVisible();
  await expect(breakdown.locator('tbody tr')).toHaveCount(7);
  await expect(breakdown).toContainText('Frenagem brusca');

  await page.getByTestId('scores-subject').getByText('Veículos').click();
  await expect(page.getByTestId('score-breakdown')).toHaveCount(0);
  await expect(rows.first()).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByTestId('scores-excel').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^Pontua.*\.xlsx$/);
  const bytes = readFileSync((await file.path())!);
  expect(bytes.subarray(0, 2).toString()).toBe('PK');
});

test('no dashboard for a user whose reports are disabled; the server refuses too', async ({ page }) => {
  const admin = { authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` };
  const email = `no-reports-${Date.now()}@example.com`;
  const created = await page.request.post('/api/users', {
    headers: admin,
    data: { name: 'No Reports', email, password: 'secret-1', disableReports: true },
  });
  expect(created.ok()).toBe(true);
  await loginAs(page, email, 'secret-1');
  await page.goto('/home');
  await expect(page.getByTestId('side-menu').first()).toBeVisible();
  await expect(page.getByTestId('menu-link-dashboard')).toHaveCount(0);
  // the access table (issue #28) sends a typed /dashboard home: the screen would only show the server's refusal
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId('dashboard-error')).toHaveCount(0);
  const span = `from=${encodeURIComponent('2024-01-01T00:00:00Z')}&to=${encodeURIComponent('2024-01-02T00:00:00Z')}`;
  expect((await page.request.get(`/rastro/dashboard?${span}`)).status()).toBe(400);
  expect((await page.request.get(`/rastro/scores?${span}`)).status()).toBe(400);
});

test('the score weights are server settings: a wrong weight is refused on its tab, a saved one is used', async ({
  page,
  serverSettings,
}) => {
  test.setTimeout(120_000);
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  await serverSettings.keep(); // the fixture puts back what the dialog saves
  await page.goto('/dashboard');
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('user-menu-server').click();
  const dialog = page.getByTestId('server-dialog');
  await page.getByTestId('server-tab-scores').click();
  await page.getByTestId('server-scoreBraking').fill('150');
  await page.getByTestId('server-save').click();
  await expect(dialog.getByText('O peso é um número de 0 a 100')).toBeVisible();
  await page.getByTestId('server-scoreBraking').fill('7,5');
  await page.getByTestId('server-save').click();
  await expect(page.getByText('Configurações do servidor salvas').first()).toBeVisible();
  await expect(dialog).toHaveCount(0);

  await page.getByTestId('tab-scores').click();
  await page.getByTestId('score-row').first().getByTestId('score-open').click();
  const braking = page.getByTestId('score-breakdown').locator('tr[data-component="braking"]');
  await expect(braking.locator('td').nth(2)).toHaveText('7,5');
});
