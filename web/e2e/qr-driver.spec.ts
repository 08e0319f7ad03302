// QR driver check-in (issue #11, SPEC §2 /qr-driver and /qr-driver/scan/{id}, §7 POST /{ns}/qr-driver): the demo
// QR driver signs in at /motorista, tries the camera (no QR reader in this browser: it is told to type the code),
// types a bad code, picks a vehicle, is refused with a wrong driver password, checks in with the right one (the
// device then carries the driver), and checks out. A manager calling the endpoint is refused.
import { accounts, expect, test } from './fixtures.ts';

const ADMIN = { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` };

test('the QR driver checks in to a vehicle with its password and checks out', async ({
  page,
  request,
  serverSettings,
}) => {
  // Headless Chromium on Linux has no BarcodeDetector; make that certain so the path is the same everywhere.
  await page.addInitScript(() => {
    delete (globalThis as { BarcodeDetector?: unknown }).BarcodeDetector;
  });
  await page.goto('/motorista?to=%2Fqr-driver');
  await page.getByTestId('login-email').fill(accounts.driver.email);
  await page.getByTestId('login-password').fill(accounts.driver.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/qr-driver$/);
  const view = page.getByTestId('qr-driver');
  await expect(view.getByTestId('qr-driver-name')).toHaveText('Ana Souza');
  await expect(view.getByTestId('qr-not-driving')).toContainText('Você não fez check-in em nenhum veículo.');

  await view.getByTestId('qr-scan').click();
  await expect(view.getByTestId('qr-camera-problem')).toHaveText(
    'A câmera não lê QR codes neste navegador: digite o código do veículo.',
  );
  await view.getByTestId('qr-code').fill('abc');
  await view.getByTestId('qr-code-go').click();
  await expect(view.getByText('Leia ou digite o código do veículo')).toBeVisible();

  // The vehicles the driver may take (the demo's first two).
  const vehicles = view.locator('[data-testid^="qr-vehicle-"]');
  await expect(vehicles).toHaveCount(2);
  const vehicleId = Number((await vehicles.first().getAttribute('data-testid'))!.replace('qr-vehicle-', ''));

  // Typing the link the QR code holds goes to the same place as picking it.
  await view.getByTestId('qr-code').fill(`http://example.test/qr-driver/scan/${vehicleId}`);
  await view.getByTestId('qr-code-go').click();
  await expect(page).toHaveURL(new RegExp(`/qr-driver/scan/${vehicleId}$`));

  await view.getByTestId('qr-password').fill('wrong');
  await view.getByTestId('qr-checkin').click();
  await expect(view.getByTestId('qr-error')).toHaveText('Senha do motorista incorreta');

  await view.getByTestId('qr-password').fill(accounts.driver.password);
  await view.getByTestId('qr-checkin').click();
  await expect(page).toHaveURL(/\/qr-driver$/);
  await expect(view.getByTestId('qr-current')).toContainText('Você está dirigindo');

  const device = (await (await request.get(`/api/devices/${vehicleId}`, { headers: ADMIN })).json()) as {
    attributes: Record<string, unknown>;
  };
  expect(device.attributes.driverUniqueId).toBe('MOT-001');
  expect(device.attributes.qrDriverId).toBeGreaterThan(0);

  // The lock / unlock buttons follow the server setting.
  await expect(view.getByTestId('qr-unlock')).toHaveCount(0);
  await serverSettings.change({ attributes: { 'rastro.lockUnlockButtons': true } });
  await page.reload();
  await view.getByTestId('qr-unlock').click();
  await expect(view.getByTestId('qr-notice')).toHaveText(
    /Desbloqueio enviado|O veículo está offline: o comando será enviado quando ele conectar./,
  );

  await view.getByTestId('qr-checkout').click();
  await expect(view.getByTestId('qr-not-driving')).toBeVisible();
  const after = (await (await request.get(`/api/devices/${vehicleId}`, { headers: ADMIN })).json()) as {
    attributes: Record<string, unknown>;
  };
  expect(after.attributes.driverUniqueId).toBeUndefined();
});

test('a user who is not a QR driver is refused by the server, in its language', async ({ page, loginAs }) => {
  await loginAs(accounts.manager.email, accounts.manager.password);
  const res = await page.request.post('/rastro/qr-driver', {
    data: { id: 1 },
    headers: { 'accept-language': 'es' },
  });
  expect(res.status()).toBe(403);
  expect(await res.text()).toContain('Esta cuenta no está vinculada a un conductor');
});
