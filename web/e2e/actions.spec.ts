// Safety actions (issue #5, SPEC §4, §8, §9): slide-to-confirm block/unlock/anchor/delete, pending commands for
// offline devices, anchor geofence on the map, cancel text, and refusals for readonly / limitCommands users.
import type { Page, Request } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';
import { createDevice, sendOsmAnd, tag } from './map-helpers.ts';

interface ApiDevice {
  id: number;
  name: string;
  uniqueId: string;
  status: string;
}

/** Records every POST /api/commands/send of the page. */
function commandPosts(page: Page): Array<{ body: Record<string, unknown> }> {
  const seen: Array<{ body: Record<string, unknown> }> = [];
  page.on('request', (req: Request) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/commands/send')
      seen.push({ body: req.postDataJSON() as Record<string, unknown> });
  });
  return seen;
}

/** Drags the slide handle by `dx` px (or to the end of the track when dx is 'end') and releases. */
async function slide(page: Page, dx: number | 'end') {
  const handle = page.getByTestId('action-slide-handle');
  const track = page.getByTestId('action-slide-track');
  const h = (await handle.boundingBox())!;
  const t = (await track.boundingBox())!;
  const y = h.y + h.height / 2;
  const x0 = h.x + h.width / 2;
  await page.mouse.move(x0, y);
  await page.mouse.down();
  const x1 = dx === 'end' ? t.x + t.width + 40 : x0 + dx;
  await page.mouse.move(x1, y, { steps: 12 });
  await page.mouse.up();
}

/** A demo device driven by the simulator (online, so commands go live: 200). */
async function onlineDemoDevice(page: Page): Promise<ApiDevice> {
  let found: ApiDevice | undefined;
  await expect
    .poll(
      async () => {
        const list = (await (await page.request.get('/api/devices')).json()) as ApiDevice[];
        found = list.find((d) => /^rastro-\d{4}$/.test(d.uniqueId) && d.status === 'online');
        return !!found;
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  return found!;
}

test('a short drag resets and sends nothing; a full drag sends engineStop/engineResume and shows the exact toasts (es)', async ({
  page,
  loginAs,
  serverSettings,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  // the interlock's limit raised so the simulator's moving vehicles can be blocked (interlock.spec.ts covers the
  // refusal); the fixture puts the settings back
  await serverSettings.change({ attributes: { 'rastro.blockMaxSpeed': 1000 } });
  await shortAndFullDrag(page);
});

async function shortAndFullDrag(page: Page) {
  const device = await onlineDemoDevice(page);
  const posts = commandPosts(page);
  await page.goto(`/devices/${device.id}?locale=es`);
  await page.getByTestId('action-block').click();
  const dialog = page.getByTestId('action-dialog-block');
  await expect(page.getByTestId('action-question')).toBeVisible();

  await slide(page, 60);
  await expect(page.getByTestId('action-slide-handle')).toHaveAttribute('data-x', '2');
  await expect(page.getByTestId('action-slide-track')).toHaveAttribute('data-confirmed', 'false');
  await page.waitForTimeout(800); // longer than the 500 ms action delay: still nothing sent
  expect(posts).toHaveLength(0);

  await slide(page, 'end');
  await expect(page.getByTestId('action-slide-track')).toHaveAttribute('data-confirmed', 'true');
  await expect(page.getByText('Comando de bloqueo enviado')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  expect(posts).toHaveLength(1);
  expect(posts[0].body).toMatchObject({ id: 0, deviceId: device.id, type: 'engineStop', textChannel: false });

  await page.getByTestId('action-unlock').click();
  await slide(page, 'end');
  await expect(page.getByText('Comando de desbloqueo enviado')).toBeVisible();
  expect(posts).toHaveLength(2);
  expect(posts[1].body).toMatchObject({ deviceId: device.id, type: 'engineResume' });
}

test('the keyboard can confirm too: focus the handle and press End', async ({ page, loginAs }) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const device = await onlineDemoDevice(page);
  const posts = commandPosts(page);
  await page.goto(`/devices/${device.id}`);
  await page.getByTestId('action-unlock').click();
  await page.getByTestId('action-slide-handle').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Tab'); // leaving early resets
  await expect(page.getByTestId('action-slide-handle')).toHaveAttribute('data-x', '2');
  await page.getByTestId('action-slide-handle').focus();
  await page.keyboard.press('End');
  await expect(page.getByText('Comando de desbloqueio enviado')).toBeVisible();
  expect(posts).toHaveLength(1);
});

test('a block to an offline device is pending (dialog, detail, list) until the device reports over OsmAnd', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Off ${t}`, uniqueId: `off-${t}` });
  await page.goto(`/devices/${dev.id}`);
  await page.getByTestId('action-block').click();
  await slide(page, 'end');
  await expect(page.getByTestId('action-pending')).toBeVisible();
  await expect(page.getByText('Comando pendente até o dispositivo ficar online')).toBeVisible();
  await page.getByTestId('action-cancel').click();
  await expect(page.getByTestId('detail-pending')).toBeVisible();
  // back to the list inside the app
  await page.getByTestId('panel-back').click();
  await expect(page).toHaveURL(/\/devices$/);
  await page.getByTestId('device-search').fill(t);
  const row = page.locator(`[data-testid=device-row][data-device-id="${dev.id}"]`);
  await expect(row.getByTestId('row-pending')).toBeVisible();
  // the marks are kept per user in localStorage: a reload still shows them
  await page.reload();
  await expect(row.getByTestId('row-pending')).toBeVisible();

  // the device reports: the queued command is its answer, and the pending marks go away
  const res = await page.request.post('/', { form: { id: dev.uniqueId, lat: '-23.5', lon: '-46.6' } });
  expect(res.status()).toBe(200);
  expect(await res.text()).toContain('engineStop');
  await expect(row.getByTestId('row-pending')).toHaveCount(0);
  await row.click();
  await expect(page.getByTestId('detail-pending')).toHaveCount(0);
});

test('anchor on draws the 150 m anchor on the map, anchor off removes it; cancelling shows the cancel text', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Anc ${t}`, uniqueId: `anc-${t}` });
  await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.5, lon: -46.6, ignition: false });
  const anchorNames = () =>
    page.evaluate(() => {
      const c = window.__rastroMap?.controller as unknown as
        { geofences?: Array<{ name: string }> } | undefined;
      return (c?.geofences ?? []).map((g) => g.name);
    });
  await page.goto(`/devices/${dev.id}`);

  await page.getByTestId('action-anchor').click();
  await expect(page.getByTestId('action-question')).toHaveText(
    `Deseja realmente ativar a âncora do veículo ${dev.name}?`,
  );
  await page.getByTestId('action-cancel').click();
  await expect(page.getByText('Ação cancelada pelo usuário')).toBeVisible();

  await page.getByTestId('action-anchor').click();
  await slide(page, 'end');
  await expect(page.getByText(`Âncora ativada para ${dev.name}`)).toBeVisible();
  await expect.poll(anchorNames).toContain(`Anchor ${dev.name}`);
  const geofences = (await (await page.request.get(`/api/geofences?deviceId=${dev.id}`)).json()) as Array<{
    name: string;
    area: string;
    calendarId: number;
    attributes: Record<string, unknown>;
  }>;
  expect(geofences).toHaveLength(1);
  expect(geofences[0]).toMatchObject({
    name: `Anchor ${dev.name}`,
    area: 'CIRCLE (-23.5 -46.6, 150)',
    calendarId: 0,
    attributes: { deviceId: dev.id, isAnchor: true },
  });

  // now anchored: the same button disables it
  await page.getByTestId('action-anchor').click();
  await expect(page.getByTestId('action-question')).toHaveText(
    `Deseja realmente desativar a âncora do veículo ${dev.name}?`,
  );
  await slide(page, 'end');
  await expect(page.getByText(`Âncora desativada para ${dev.name}`)).toBeVisible();
  await expect.poll(anchorNames).not.toContain(`Anchor ${dev.name}`);
  expect(await (await page.request.get(`/api/geofences?deviceId=${dev.id}`)).json()).toEqual([]);
});

test('delete: slide, toast, dialog closed, back on /devices; the device is gone', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Del ${t}`, uniqueId: `del-${t}` });
  await page.goto(`/devices/${dev.id}`);
  await page.getByTestId('action-delete').click();
  await slide(page, 'end');
  await expect(page.getByText('Dispositivo excluído')).toBeVisible();
  await expect(page).toHaveURL(/\/devices$/);
  await expect(page.getByTestId('action-dialog-delete')).toHaveCount(0);
  const list = (await (await page.request.get('/api/devices')).json()) as ApiDevice[];
  expect(list.some((d) => d.id === dev.id)).toBe(false);
});

test('a readonly user has no command buttons and the API refuses', async ({ page, loginAs }) => {
  await loginAs(accounts.readonly.email, accounts.readonly.password);
  const list = (await (await page.request.get('/api/devices')).json()) as ApiDevice[];
  expect(list.length).toBeGreaterThan(0);
  const dev = list[0];
  const posts = commandPosts(page);
  await page.goto(`/devices/${dev.id}`);
  await expect(page.getByTestId('detail-name')).toHaveText(dev.name);
  for (const a of ['block', 'unlock', 'commands', 'anchor', 'delete', 'edit'])
    await expect(page.getByTestId(`action-${a}`)).toHaveCount(0);
  await expect(page.getByTestId('action-history')).toBeVisible();
  // the dialog asks the same domain rule and refuses too (DeviceActionsHost.test.tsx); nothing was sent
  expect(posts).toHaveLength(0);
  const res = await page.request.post('/api/commands/send', {
    data: { id: 0, deviceId: dev.id, type: 'engineStop', textChannel: false, attributes: {} },
  });
  expect(res.status()).toBe(400);
  expect(await res.text()).toBe('SecurityException: Operation restricted');
});

test('a limitCommands user has no block/unlock/commands buttons and the API refuses', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Lim ${t}`, uniqueId: `lim-${t}` });
  const email = `limited-${t}@rastro.test`;
  const created = await page.request.post('/api/users', {
    data: { name: `Limited ${t}`, email, password: 'secret-pass', limitCommands: true },
  });
  expect(created.ok()).toBe(true);
  const user = (await created.json()) as { id: number };
  expect(
    (await page.request.post('/api/permissions', { data: { userId: user.id, deviceId: dev.id } })).status(),
  ).toBe(204);
  await loginAs(email, 'secret-pass');
  await page.goto(`/devices/${dev.id}`);
  await expect(page.getByTestId('detail-name')).toHaveText(dev.name);
  for (const a of ['block', 'unlock', 'commands'])
    await expect(page.getByTestId(`action-${a}`)).toHaveCount(0);
  await expect(page.getByTestId('action-edit')).toBeVisible();
  const res = await page.request.post('/api/commands/send', {
    data: { id: 0, deviceId: dev.id, type: 'engineStop', textChannel: false, attributes: {} },
  });
  expect(res.status()).toBe(400);
  expect(await res.text()).toBe('SecurityException: Operation restricted');
});

test('share makes an expiring link with copy; history opens /history for the device', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Share ${t}`, uniqueId: `share-${t}` });
  await page.goto(`/devices/${dev.id}`);
  await page.getByTestId('action-share').click();
  const shared = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/rastro/shares',
  );
  await page.getByTestId('share-create').click();
  const body = (await shared).postDataJSON() as { deviceId: number; expirationTime: string };
  expect(body.deviceId).toBe(dev.id);
  expect(Date.parse(body.expirationTime)).toBeGreaterThan(Date.now());
  await expect(page.getByTestId('share-link')).toHaveValue(/\/share\/[^/]+$/);
  await expect(page.getByTestId('share-copy')).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByTestId('action-history').click();
  await expect(page).toHaveURL(new RegExp(`/history\\?deviceId=${dev.id}$`));
});
