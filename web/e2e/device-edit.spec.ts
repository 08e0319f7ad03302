// Device form (issue #5, SPEC §3, §5): each validation message, add (POST) then edit (PUT) with accumulators,
// QR and printable sheet only once saved, and the device-limit check before adding.
import type { Page } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';
import { createDevice, sendOsmAnd, tag } from './map-helpers.ts';

const field = (page: Page, name: string) => page.getByTestId(`devform-${name}`);
/** The error text Mantine shows under an input (aria-describedby points at it). */
async function errorOf(page: Page, testId: string): Promise<string> {
  return page.getByTestId(testId).evaluate((el) => {
    const input = el.matches('input,textarea') ? el : el.querySelector('input,textarea');
    const ids = (input?.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean);
    return ids
      .map((id) => document.getElementById(id))
      .filter((n) => n?.className.includes('error'))
      .map((n) => n!.textContent ?? '')
      .join(' ');
  });
}

async function openAdd(page: Page) {
  await page.goto('/devices');
  await page.getByTestId('device-add').click();
  await expect(page.getByTestId('device-save')).toBeVisible();
}

test('each device form validation message (pt-BR), then a valid add saves with POST', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  await openAdd(page);
  // printing needs the device saved first
  await page.getByTestId('device-print').click();
  await expect(page.getByTestId('device-form-error')).toHaveText('Salve o dispositivo primeiro');
  await expect(page.getByTestId('device-open-qr')).toBeDisabled();

  await page.getByTestId('device-save').click();
  await expect.poll(() => errorOf(page, 'devform-name')).toBe('informe um nome para o dispositivo');
  await expect
    .poll(() => errorOf(page, 'devform-uniqueId'))
    .toBe('informe o identificador único do dispositivo');

  const t = tag();
  await field(page, 'name').fill(`Form ${t}`);
  await field(page, 'uniqueId').fill(`form-${t}`);
  await page.getByRole('tab', { name: 'Chip' }).click();
  await field(page, 'monthlyValue').fill('abc');
  await page.getByTestId('device-save').click();
  await expect.poll(() => errorOf(page, 'devform-monthlyValue')).toBe('Número inválido');
  await field(page, 'monthlyValue').fill('49,90');
  // dates typed as dd/mm/aaaa (the app's language, whatever the browser's)
  await expect(field(page, 'simActivationDate')).toHaveAttribute('placeholder', 'dd/mm/aaaa');
  await field(page, 'simActivationDate').fill('10/05/2025');
  await field(page, 'simActivationDate').press('Tab');
  await field(page, 'simExpirationDate').fill('01/05/2025');
  await field(page, 'simExpirationDate').press('Tab');
  await page.getByTestId('device-save').click();
  await expect
    .poll(() => errorOf(page, 'devform-simExpirationDate'))
    .toBe('A data de vencimento do chip deve ser posterior à ativação');
  await field(page, 'simExpirationDate').fill('10/05/2026');
  await field(page, 'simExpirationDate').press('Tab');
  await page.getByRole('tab', { name: 'Veículo' }).click();
  await field(page, 'fuelTank').fill('-5');
  await field(page, 'plate').fill('X'.repeat(17));
  // saved from another tab: the form opens the tab holding the errors, and marks it
  await page.getByRole('tab', { name: 'Instalação' }).click();
  await page.getByTestId('device-save').click();
  await expect(page.getByTestId('tab-vehicle')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('tab-vehicle')).toHaveAttribute('data-error', 'true');
  await expect(page.getByTestId('tab-installation')).not.toHaveAttribute('data-error', 'true');
  await expect.poll(() => errorOf(page, 'devform-fuelTank')).toBe('Não pode ser negativo');
  await expect.poll(() => errorOf(page, 'devform-plate')).toBe('Texto muito longo');

  await field(page, 'fuelTank').fill('60');
  await field(page, 'plate').fill('ABC1D23');
  await page.getByRole('tab', { name: 'Instalação' }).click();
  await page.getByTestId('installation-email').fill('not-an-email');
  await page.getByTestId('device-save').click();
  await expect.poll(() => errorOf(page, 'installation-email')).toBe('Endereço de e-mail inválido');
  await page.getByTestId('installation-email').fill('tecnico@rastro.demo');
  await page.getByTestId('installation-company').fill('Instaladora Sul');

  const posted = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/devices',
  );
  await page.getByTestId('device-save').click();
  const body = (await posted).postDataJSON() as Record<string, unknown> & {
    attributes: Record<string, unknown>;
  };
  expect(body).toMatchObject({ id: 0, name: `Form ${t}`, uniqueId: `form-${t}` });
  expect(body.attributes).toMatchObject({
    placa: 'ABC1D23',
    monthlyValue: 49.9,
    fuelCapacity: 60,
    simActivationDate: '2025-05-10',
    simExpirationDate: '2026-05-10',
  });
  expect(JSON.parse(String(body.attributes.installation))).toMatchObject({
    company: 'Instaladora Sul',
    email: 'tecnico@rastro.demo',
  });
  await expect(page.getByText('Dispositivo salvo')).toBeVisible();
  const list = (await (await page.request.get(`/api/devices?uniqueId=form-${t}`)).json()) as Array<{
    id: number;
  }>;
  expect(list).toHaveLength(1);

  // saved: QR and sheet are available now
  await page.getByTestId('device-open-qr').click();
  await expect(page.getByTestId('device-qr-image')).toHaveAttribute(
    'data-url',
    new RegExp(`/qr-driver/scan/${list[0].id}$`),
  );

  // another device with the same identifier: refused, said under the field, what was typed kept
  await openAdd(page);
  await field(page, 'name').fill(`Form bis ${t}`);
  await field(page, 'uniqueId').fill(`form-${t}`);
  await page.getByRole('tab', { name: 'Veículo' }).click();
  await page.getByTestId('device-save').click();
  await expect(page.getByTestId('tab-general')).toHaveAttribute('aria-selected', 'true');
  await expect
    .poll(() => errorOf(page, 'devform-uniqueId'))
    .toBe('Já existe um dispositivo com este identificador');
  await expect(field(page, 'name')).toHaveValue(`Form bis ${t}`);
});

test('editing saves with PUT, colours and icon in attributes, odometer and hours through accumulators', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Edit ${t}`, uniqueId: `edit-${t}` });
  await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.5, lon: -46.6 });
  await page.goto(`/devices/${dev.id}`);
  await page.getByTestId('action-edit').click();
  await expect(field(page, 'name')).toHaveValue(dev.name);
  await field(page, 'name').fill(`Edited ${t}`);
  await page
    .locator('input[data-testid=devform-color-input], [data-testid=devform-color-input] input')
    .first()
    .fill('#ff0000');
  await page.getByRole('tab', { name: 'Veículo' }).click();
  await field(page, 'odometer').fill('1234.5');
  await field(page, 'engineHours').fill('10');
  const put = page.waitForRequest(
    (r) => r.method() === 'PUT' && new URL(r.url()).pathname === `/api/devices/${dev.id}`,
  );
  const acc = page.waitForRequest(
    (r) => r.method() === 'PUT' && new URL(r.url()).pathname === `/api/devices/${dev.id}/accumulators`,
  );
  await page.getByTestId('device-save').click();
  const body = (await put).postDataJSON() as { name: string; attributes: Record<string, unknown> };
  expect(body.name).toBe(`Edited ${t}`);
  expect(body.attributes['rastro.color']).toBe('#ff0000');
  expect((await acc).postDataJSON()).toEqual({
    deviceId: dev.id,
    totalDistance: 1_234_500,
    hours: 36_000_000,
  });
  await expect(page.getByText('Dispositivo salvo')).toBeVisible();
  await expect
    .poll(async () => {
      const p = (await (await page.request.get(`/api/positions?deviceId=${dev.id}`)).json()) as Array<{
        attributes: Record<string, unknown>;
      }>;
      return [p[0]?.attributes.totalDistance, p[0]?.attributes.hours];
    })
    .toEqual([1_234_500, 36_000_000]);
  await page.getByTestId('device-print').click();
  await expect(page.getByTestId('device-sheet-table')).toContainText(`Edited ${t}`);
  await page.getByTestId('device-sheet-close').click();
  await expect(page.getByTestId('device-sheet-table')).toHaveCount(0);

  // installation photo and device picture go to the server and are shown back
  await page.getByRole('tab', { name: 'Instalação' }).click();
  const png = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('photo-upload').click();
  await (await chooser).setFiles({ name: 'install.png', mimeType: 'image/png', buffer: png });
  await expect(page.getByTestId('photo-item')).toHaveCount(1);
  await expect
    .poll(() =>
      page
        .getByTestId('photo-item')
        .locator('img')
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBe(1);
  const picture = page.waitForResponse((r) => new URL(r.url()).pathname === `/api/devices/${dev.id}/image`);
  const chooser2 = page.waitForEvent('filechooser');
  await page.getByTestId('device-image-upload').click();
  await (await chooser2).setFiles({ name: 'car.png', mimeType: 'image/png', buffer: png });
  expect(await (await picture).text()).toBe('device.png');
  const media = await page.request.get(`/api/media/${dev.uniqueId}/device.png`);
  expect(media.status()).toBe(200);
});

test('the device-limit check blocks adding for a user whose limit is reached', async ({ page, loginAs }) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const email = `limit-${t}@rastro.test`;
  const res = await page.request.post('/api/users', {
    data: { name: `Limit ${t}`, email, password: 'secret-pass', deviceLimit: 0 },
  });
  expect(res.ok()).toBe(true);
  await loginAs(email, 'secret-pass');
  const posts: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === '/api/devices') posts.push(r.url());
  });
  await openAdd(page);
  await field(page, 'name').fill(`Blocked ${t}`);
  await field(page, 'uniqueId').fill(`blocked-${t}`);
  await page.getByTestId('device-save').click();
  await expect(page.getByTestId('device-form-error')).toHaveText('Limite de dispositivos atingido');
  expect(posts).toHaveLength(0);
});
