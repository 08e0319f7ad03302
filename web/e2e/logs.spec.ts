// Advanced logs (SPEC §2 user menu, admin of a Plus server): the logObjects dialog lists what was done to a device
// (created, edited) with who did it, searches and exports to Excel; the server scope shows sign-ins.
import ExcelJS from 'exceljs';
import { accounts, expect, test } from './fixtures.ts';
import { createDevice, tag } from './map-helpers.ts';

test('an administrator reads a device log and the server log from the user menu, and exports it', async ({
  page,
  loginAs,
}, info) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Logged ${t}`, uniqueId: `log-${t}` });
  const renamed = `Logged ${t} 2`;
  const put = await page.request.put(`/api/devices/${dev.id}`, { data: { ...dev, name: renamed } });
  expect(put.ok()).toBe(true);

  await page.goto('/home');
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('user-menu-advancedLogs').click();
  const dialog = page.getByRole('dialog', { name: 'Logs avançados' });
  await expect(dialog).toBeVisible();

  // device scope: nothing to ask until a device is chosen
  await dialog.getByText('Dispositivo', { exact: true }).click();
  await expect(page.getByTestId('logs-run')).toBeDisabled();
  await page.getByTestId('logs-object').click();
  await page.getByTestId('logs-object').fill(renamed);
  await page.getByRole('option', { name: renamed, exact: true }).click();
  const answer = page.waitForResponse((r) => r.url().includes(`/devices/${dev.id}/logs?`));
  await page.getByTestId('logs-run').click();
  const rest = (await (await answer).json()) as Array<{ actionType: string }>;
  expect(rest.map((a) => a.actionType)).toEqual(['edit', 'create']);
  await expect(page.getByTestId('logs-row')).toHaveCount(2);
  await expect(page.getByTestId('logs-row').locator('[data-key="action"]')).toHaveText(['Edição', 'Criação']);
  await expect(page.getByTestId('logs-row').first().locator('[data-key="object"]')).toHaveText(
    `Dispositivo ${renamed}`,
  );
  await expect(page.getByTestId('logs-row').first()).toContainText('admin');

  // search narrows the rows
  await page.getByTestId('logs-search').fill('criação');
  await expect(page.getByTestId('logs-row')).toHaveCount(1);
  await page.getByTestId('logs-search').fill('');

  // Excel holds the rows shown
  const download = page.waitForEvent('download');
  await page.getByTestId('logs-excel').click();
  const file = info.outputPath('logs.xlsx');
  await (await download).saveAs(file);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.readFile(file);
  const ws = wb.worksheets[0];
  expect(ws.rowCount).toBe(3);
  expect(ws.getRow(2).getCell(3).value).toBe('Edição');

  // server scope: today's sign-in of the administrator is there
  await dialog.getByText('Servidor', { exact: true }).click();
  await page.getByTestId('logs-run').click();
  await page.getByTestId('logs-search').fill('entrada');
  await expect(page.getByTestId('logs-row').first()).toContainText('admin');
});

test('a user who is not an administrator gets no advanced logs, and the endpoint refuses', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.manager.email, accounts.manager.password);
  await page.goto('/home');
  await page.getByTestId('user-menu-button').click();
  await expect(page.getByTestId('user-menu')).toBeVisible();
  await expect(page.getByTestId('user-menu-advancedLogs')).toHaveCount(0);
  const res = await page.request.get(
    `/rastro/server/logs?from=${new Date(Date.now() - 3600_000).toISOString()}&to=${new Date().toISOString()}`,
  );
  expect(res.status()).toBe(400);
  expect(await res.text()).toBe('SecurityException: Administrator access required');
});
