// Engine-block interlock (issue #10, docs/device-actions.md): a vehicle that reported 60 km/h a moment ago (over
// OsmAnd, so the speed is exact) cannot be blocked: the dialog shows the server's refusal with the speed and the
// limit (20 km/h by default). An administrator gets a warned "block anyway" slide that sends the block with
// attributes.force; a manager does not. The device log lists the refusal and the forced block with the user.
import type { Page, Request } from '@playwright/test';
import { accounts, expect, loginAs, test } from './fixtures.ts';
import { createDevice, sendOsmAnd, tag } from './map-helpers.ts';

const KNOTS_60_KMH = 32.4; // 60.0 km/h

/** Drags the handle of the slide `testId` to the end of its track and releases. */
async function slideToEnd(page: Page, testId: string) {
  const handle = page.getByTestId(`${testId}-handle`);
  const track = page.getByTestId(`${testId}-track`);
  const h = (await handle.boundingBox())!;
  const t = (await track.boundingBox())!;
  const y = h.y + h.height / 2;
  await page.mouse.move(h.x + h.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(t.x + t.width + 40, y, { steps: 12 });
  await page.mouse.up();
}

function commandPosts(page: Page): Array<Record<string, unknown>> {
  const seen: Array<Record<string, unknown>> = [];
  page.on('request', (req: Request) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/commands/send')
      seen.push(req.postDataJSON() as Record<string, unknown>);
  });
  return seen;
}

/** A new device that has just reported 60 km/h. */
async function fastDevice(page: Page, name: string, uniqueId: string) {
  const dev = await createDevice(page.request, { name, uniqueId });
  await sendOsmAnd(page.request, {
    id: uniqueId,
    lat: -23.55,
    lon: -46.63,
    timestamp: Math.floor(Date.now() / 1000),
    speed: KNOTS_60_KMH,
  });
  return dev;
}

const REFUSAL = (name: string) =>
  `Bloqueio recusado para ${name}: o veículo está a 60 km/h, acima do limite de 20 km/h para bloquear`;

test('an administrator is refused for a fast vehicle, blocks anyway with the force slide, and the device log shows both', async ({
  page,
}) => {
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  const t = tag();
  const name = `Fast ${t}`;
  const dev = await fastDevice(page, name, `fast-${t}`);
  const posts = commandPosts(page);

  await page.goto(`/devices/${dev.id}`);
  await page.getByTestId('action-block').click();
  await slideToEnd(page, 'action-slide');
  await expect(page.getByTestId('action-refused')).toHaveText(REFUSAL(name));
  await expect(page.getByText('Erro ao enviar comando')).toHaveCount(0);
  await expect(page.getByTestId('action-force-warning')).toContainText('pode causar um acidente');
  expect(posts).toHaveLength(1);
  expect(posts[0]!.attributes).toEqual({});

  await slideToEnd(page, 'action-force-slide');
  // the OsmAnd device has no open channel: the forced block is queued for its next report
  await expect(page.getByTestId('action-pending')).toBeVisible();
  expect(posts).toHaveLength(2);
  expect(posts[1]).toMatchObject({ deviceId: dev.id, type: 'engineStop', attributes: { force: true } });
  await page.getByTestId('action-cancel').click();

  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('user-menu-advancedLogs').click();
  const dialog = page.getByRole('dialog', { name: 'Logs avançados' });
  await dialog.getByText('Dispositivo', { exact: true }).click();
  await page.getByTestId('logs-object').click();
  await page.getByTestId('logs-object').fill(name);
  await page.getByRole('option', { name, exact: true }).click();
  await page.getByTestId('logs-run').click();
  await page.getByTestId('logs-search').fill('bloqueio');
  await expect(page.getByTestId('logs-row').locator('[data-key="action"]')).toHaveText([
    'Bloqueio forçado (60 km/h, limite 20 km/h)',
    'Bloqueio recusado (60 km/h, limite 20 km/h)',
  ]);
  await expect(page.getByTestId('logs-row').first()).toContainText('admin');
});

test('a manager is refused with the same text and gets no force slide; nothing is sent', async ({ page }) => {
  const admin = await loginAs(page, accounts.admin.email, accounts.admin.password);
  expect(admin.administrator).toBe(true);
  const t = tag();
  const name = `Fast ${t}`;
  const dev = await fastDevice(page, name, `fastm-${t}`);
  const users = (await (await page.request.get('/api/users')).json()) as Array<{ id: number; email: string }>;
  const manager = users.find((u) => u.email === accounts.manager.email)!;
  const linked = await page.request.post('/api/permissions', {
    data: { userId: manager.id, deviceId: dev.id },
  });
  expect(linked.ok()).toBe(true);

  await loginAs(page, accounts.manager.email, accounts.manager.password);
  const posts = commandPosts(page);
  await page.goto(`/devices/${dev.id}`);
  await page.getByTestId('action-block').click();
  await slideToEnd(page, 'action-slide');
  await expect(page.getByTestId('action-refused')).toHaveText(REFUSAL(name));
  await expect(page.getByTestId('action-force')).toHaveCount(0);
  expect(posts).toHaveLength(1);
  await expect(page.getByTestId('action-slide-handle')).toHaveAttribute('data-x', '2');
});
