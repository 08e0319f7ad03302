// Saved commands page and the send-command dialog (issue #5): create/edit/delete saved commands with attributes by
// type; send a command with the types the device supports (an OsmAnd phone: what the Traccar Client app acts on,
// issue #12), or a saved command linked to the device.
import type { Page } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';
import { createDevice, sendOsmAnd, tag } from './map-helpers.ts';

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('the /commands page creates, edits and deletes a saved command', async ({ page, loginAs }) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  await page.goto('/commands');
  await page.getByTestId('command-add').click();
  // the description is required for a saved command
  await page.getByTestId('command-save').click();
  await expect(page.getByText('Informe uma descrição')).toBeVisible();
  await page.getByTestId('command-description').fill(`Periodic ${t}`);
  await pick(page, 'command-type', 'Posições periódicas');
  await page.getByTestId('command-attr-frequency').fill('abc');
  await page.getByTestId('command-save').click();
  await expect(page.getByText('Número inválido')).toBeVisible();
  await page.getByTestId('command-attr-frequency').fill('60');
  await page.getByTestId('command-save').click();
  await expect(page.getByText('Comando salvo')).toBeVisible();
  const row = page.getByTestId('command-row').filter({ hasText: `Periodic ${t}` });
  await expect(row).toContainText('Posições periódicas');
  const saved = (await (await page.request.get('/api/commands')).json()) as Array<{
    id: number;
    description: string;
    type: string;
    attributes: Record<string, unknown>;
  }>;
  expect(saved.find((c) => c.description === `Periodic ${t}`)).toMatchObject({
    type: 'positionPeriodic',
    attributes: { frequency: 60 },
  });

  await row.getByTestId('command-edit').click();
  await expect(page.getByTestId('command-attr-frequency')).toHaveValue('60');
  await page.getByTestId('command-description').fill(`Periodic ${t} 2`);
  await page.getByTestId('command-save').click();
  await expect(page.getByTestId('command-row').filter({ hasText: `Periodic ${t} 2` })).toBeVisible();

  await page
    .getByTestId('command-row')
    .filter({ hasText: `Periodic ${t} 2` })
    .getByTestId('command-delete')
    .click();
  await page.getByTestId('command-delete-yes').click();
  await expect(page.getByText('Comando excluído')).toBeVisible();
  await expect(page.getByTestId('command-row').filter({ hasText: `Periodic ${t}` })).toHaveCount(0);
});

test('the send-command dialog sends a phone the commands it acts on and a saved command linked to the device', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Cmd ${t}`, uniqueId: `cmd-${t}` });
  await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.5, lon: -46.6 });
  const savedRes = await page.request.post('/api/commands', {
    data: { id: 0, description: `Locate ${t}`, type: 'positionSingle', textChannel: false, attributes: {} },
  });
  const savedCmd = (await savedRes.json()) as { id: number };
  expect(
    (
      await page.request.post('/api/permissions', { data: { deviceId: dev.id, commandId: savedCmd.id } })
    ).status(),
  ).toBe(204);
  const posts: Array<Record<string, unknown>> = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/commands/send')
      posts.push(r.postDataJSON() as Record<string, unknown>);
  });

  await page.goto(`/devices/${dev.id}`);
  await page.getByTestId('action-commands').click();
  await expect(
    page.getByTestId('send-command-dialog').getByText(`Enviar comando para ${dev.name}`),
  ).toBeVisible();
  // an OsmAnd phone is offered what the Traccar Client app acts on, nothing else
  await page.getByTestId('command-type').click();
  const offered = await page.getByRole('option').allTextContents();
  expect(offered).toEqual([
    'Posição única',
    'Posições periódicas',
    'Parar posições',
    'Restaurar padrões de fábrica',
  ]);
  await page.getByRole('option', { name: 'Posições periódicas', exact: true }).click();
  // the frequency must be a number
  await page.getByTestId('command-attr-frequency').fill('abc');
  await page.getByTestId('send-submit').click();
  await expect(page.getByText('Número inválido')).toBeVisible();
  await page.getByTestId('command-attr-frequency').fill('120');
  await page.getByTestId('send-submit').click();
  // this device has no live receiver: the command is queued (202) and shown as pending
  await expect(page.getByTestId('send-pending')).toBeVisible();
  expect(posts[0]).toMatchObject({
    id: 0,
    deviceId: dev.id,
    type: 'positionPeriodic',
    attributes: { frequency: 120 },
  });
  await page.getByTestId('send-cancel').click();
  await expect(page.getByTestId('detail-pending')).toBeVisible();

  await page.getByTestId('action-commands').click();
  await page.getByTestId('send-mode').getByText('Salvo').click();
  await pick(page, 'send-saved', `Locate ${t}`);
  await page.getByTestId('send-submit').click();
  await expect(page.getByTestId('send-pending')).toBeVisible();
  expect(posts[1]).toMatchObject({ id: savedCmd.id, deviceId: dev.id });
});
