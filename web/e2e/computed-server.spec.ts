// Computed attributes (/computed), the server settings dialog and /server-health, as an administrator would use
// them: create speedKmh = speed * 1.852, test it against rastro-0001 (a number; a bad expression shows the parse
// error), link it to that device and see it in the next stored position, delete it; switch the server's speed
// unit to km/h and see the device detail follow at once, then restore it; read the health figures. A read-only
// user asking for /server-health is sent home. Everything created here is removed again.
import type { APIRequestContext, Page } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';
import { sendOsmAnd, tag } from './map-helpers.ts';

interface ApiDevice {
  id: number;
  name: string;
  uniqueId: string;
}
interface ApiPosition {
  id: number;
  latitude: number;
  longitude: number;
  speed: number;
  course: number;
  attributes: Record<string, unknown>;
}
interface ApiComputed {
  id: number;
  description: string;
  attribute: string;
  expression: string;
  type: string;
}

async function demoDevice(request: APIRequestContext, uniqueId: string): Promise<ApiDevice> {
  const list = (await (await request.get('/api/devices')).json()) as ApiDevice[];
  const d = list.find((x) => x.uniqueId === uniqueId);
  if (!d) throw new Error(`${uniqueId} not found`);
  return d;
}

async function latestPosition(request: APIRequestContext, deviceId: number): Promise<ApiPosition | null> {
  const list = (await (await request.get(`/api/positions?deviceId=${deviceId}`)).json()) as ApiPosition[];
  return list[0] ?? null;
}

async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('an administrator creates, tests, links and deletes the computed attribute speedKmh', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const description = `Velocidade km/h ${t}`;
  const device = await demoDevice(page.request, 'rastro-0001');
  let createdId = 0;
  try {
    await page.goto('/computed');
    await page.getByTestId('computed-add').click();
    const form = page.getByTestId('computed-form');
    await expect(page.getByTestId('computed-description')).toBeVisible();

    // the form's own rules first
    await page.getByTestId('computed-save').click();
    await expect(form.getByText('Informe uma descrição')).toBeVisible();
    await expect(form.getByText('Informe a expressão')).toBeVisible();

    await page.getByTestId('computed-description').fill(description);
    await page.getByTestId('computed-attribute').fill('speedKmh');
    await expect(page.getByTestId('computed-type')).toHaveValue('Número');

    // a bad expression: the server's parse error is shown
    await page.getByTestId('computed-expression').fill('speed * (1.852');
    await page.getByTestId('computed-test-device').fill(device.name);
    await page.getByRole('option', { name: device.name, exact: true }).click();
    await page.getByTestId('computed-test').click();
    const error = page.getByTestId('computed-test-error');
    await expect(error).toBeVisible();
    await expect(error).toContainText('Erro na expressão');
    await expect(error).toContainText('expected ")"');

    // the right one gives a number against the device's latest position
    await page.getByTestId('computed-expression').fill('speed * 1.852');
    await page.getByTestId('computed-test').click();
    const result = page.getByTestId('computed-test-result');
    await expect(result).toHaveAttribute('data-kind', 'number');
    const shown = Number(await page.getByTestId('computed-test-value').textContent());
    expect(Number.isFinite(shown)).toBe(true);
    expect(shown).toBeGreaterThanOrEqual(0);

    // link it to the device and save
    await page.getByTestId('computed-devices').fill(device.name);
    await page.getByRole('option', { name: device.name, exact: true }).click();
    await page.getByTestId('computed-save').click();
    await expect(page.getByText('Atributo calculado salvo')).toBeVisible();
    const row = page.getByTestId('computed-row').filter({ hasText: description });
    await expect(row).toContainText('speedKmh');
    await expect(row).toContainText('speed * 1.852');
    await expect(row).toContainText('Número');

    const saved = (await (await page.request.get('/api/attributes/computed')).json()) as ApiComputed[];
    const mine = saved.find((a) => a.description === description);
    expect(mine).toMatchObject({ attribute: 'speedKmh', expression: 'speed * 1.852', type: 'number' });
    createdId = mine!.id;
    const linked = (await (
      await page.request.get(`/api/attributes/computed?deviceId=${device.id}`)
    ).json()) as ApiComputed[];
    expect(linked.map((a) => a.id)).toContain(createdId);

    // the next position of the device carries speedKmh (a parked demo vehicle reports only every 2 minutes, so
    // the test sends that next report itself, with what the vehicle reported last: no jump, no new event)
    const last = await latestPosition(page.request, device.id);
    if (!last) throw new Error('rastro-0001 has no position');
    const report: Record<string, string | number | boolean> = {
      id: device.uniqueId,
      lat: last.latitude,
      lon: last.longitude,
      speed: last.speed,
      bearing: last.course,
      timestamp: Math.floor(Date.now() / 1000),
    };
    for (const key of ['ignition', 'motion', 'blocked', 'driverUniqueId', 'power', 'battery']) {
      const v = last.attributes[key];
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') report[key] = v;
    }
    await sendOsmAnd(page.request, report);
    await expect
      .poll(async () => {
        const p = await latestPosition(page.request, device.id);
        return p && typeof p.attributes.speedKmh === 'number'
          ? Math.abs((p.attributes.speedKmh as number) - p.speed * 1.852) < 1e-6
          : false;
      })
      .toBe(true);

    // editing shows the link
    await row.getByTestId('computed-edit').click();
    await expect(page.getByTestId('computed-description')).toHaveValue(description);
    await expect(page.getByTestId('computed-form').getByText(device.name, { exact: true })).toBeVisible();
    await page.getByTestId('computed-form').getByRole('button', { name: 'Cancelar' }).click();

    // delete with confirm
    await row.getByTestId('computed-delete').click();
    await expect(page.getByTestId('computed-delete-confirm')).toContainText(description);
    await page.getByTestId('computed-delete-yes').click();
    await expect(page.getByText('Atributo calculado excluído')).toBeVisible();
    await expect(page.getByTestId('computed-row').filter({ hasText: description })).toHaveCount(0);
    const after = (await (await page.request.get('/api/attributes/computed')).json()) as ApiComputed[];
    expect(after.find((a) => a.id === createdId)).toBeUndefined();
    createdId = 0;
  } finally {
    if (createdId) await page.request.delete(`/api/attributes/computed/${createdId}`);
  }
});

test('the server dialog switches the speed unit to mph, the device detail follows, then it is restored', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const original = (await (await page.request.get('/api/server')).json()) as Record<string, unknown> & {
    attributes: Record<string, unknown>;
  };
  const device = await demoDevice(page.request, 'rastro-0001');
  try {
    await page.goto(`/devices/${device.id}`);
    const speed = page.getByTestId('detail-speed');
    await expect(speed).toContainText(/\d/);
    // no unit chosen: pt-BR reads km/h (issue #29)
    await expect(speed).toContainText('km/h');

    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-server').click();
    const dialog = page.getByTestId('server-dialog');
    await expect(page.getByTestId('server-tab-units')).toBeVisible();
    await page.getByTestId('server-tab-units').click();
    await pick(page, 'server-speedUnit', 'mph');
    await page.getByTestId('server-save').click();
    await expect(page.getByText('Configurações do servidor salvas')).toBeVisible();
    await expect(dialog).toHaveCount(0);

    // the session's server info was reloaded: the open detail shows mph without a page reload
    await expect(speed).toContainText('mph');
    const changed = (await (await page.request.get('/api/server')).json()) as {
      attributes: Record<string, unknown>;
    };
    expect(changed.attributes.speedUnit).toBe('mph');

    // a bad latitude is refused on its tab
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-server').click();
    await page.getByTestId('server-tab-map').click();
    await page.getByTestId('server-latitude').fill('95');
    await page.getByTestId('server-save').click();
    await expect(dialog.getByText('Latitude entre -90 e 90')).toBeVisible();
    await page.getByTestId('server-latitude').fill(String(original.latitude));

    // restore through the dialog
    await page.getByTestId('server-tab-units').click();
    await pick(page, 'server-speedUnit', 'km/h');
    await page.getByTestId('server-save').click();
    await expect(page.getByText('Configurações do servidor salvas').first()).toBeVisible();
    await expect(dialog).toHaveCount(0);
    await expect(speed).toContainText('km/h');
  } finally {
    // whatever happened above, the shared server gets its settings back
    await page.request.put('/api/server', { data: original });
  }
  const restored = (await (await page.request.get('/api/server')).json()) as {
    attributes: Record<string, unknown>;
  };
  expect(restored.attributes.speedUnit).toBe(original.attributes.speedUnit);
});

test('/server-health shows the figures to an administrator and sends a read-only user home', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  await page.goto('/server-health');
  await expect(page.getByTestId('health-page')).toBeVisible();
  await expect(page.getByTestId('health-status')).toHaveText('Funcionando');
  await expect(page.getByTestId('health-uptime')).toContainText(/\d+ (s|min|h|d)/);
  await expect(page.getByTestId('health-version')).toContainText(/\d+\.\d+/);
  await expect(page.getByTestId('health-rss')).toContainText(/MB|GB/);
  await expect(page.getByTestId('health-db-size')).toContainText(/kB|MB|GB/);
  const total = Number(await page.getByTestId('health-devices-total').textContent());
  expect(total).toBeGreaterThanOrEqual(30);
  await expect(page.getByTestId('health-positions-rate')).toContainText(/\d/);
  await expect(page.getByTestId('health-clients')).toContainText(/^[1-9]\d*$/); // this page's own socket
  await expect(page.getByTestId('health-ssl-managed')).toContainText('proxy reverso');
  await expect(page.getByTestId('health-ssl-https')).toHaveText('HTTP sem criptografia');
  // the figures come back every 10 s
  const first = await page.getByTestId('health-updated').textContent();
  await expect(page.getByTestId('health-updated')).not.toHaveText(first ?? '', { timeout: 25_000 });

  await page.context().clearCookies();
  await loginAs(accounts.readonly.email, accounts.readonly.password);
  await page.goto('/server-health');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId('health-page')).toHaveCount(0);
  expect((await page.request.get('/api/server-health')).status()).toBe(400);
});
