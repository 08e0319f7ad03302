// Shared links (issue #11, SPEC §2 device share, §7 client A /{ns}/shares, §9 countdown): a manager creates a
// link from the device page, sees it listed with its countdown, changes its expiry, and revokes it; the guest who
// had it open is told at once ("Sua sessão expirou!") and, leaving, finds the link saying "Este link expirou".
import { accounts, expect, test } from './fixtures.ts';
import { createDevice, tag } from './map-helpers.ts';

test('a link is created, listed with its countdown, extended and revoked; the guest loses access at once', async ({
  page,
  browser,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Partilha ${t}`, uniqueId: `partilha-${t}` });
  await page.goto(`/devices/${dev.id}`);
  await page.getByTestId('action-share').click();
  const dialog = page.getByTestId('share-dialog');
  await expect(dialog.getByTestId('share-create')).toBeVisible();
  await expect(dialog.getByTestId('shares-empty')).toHaveText('Nenhum link compartilhado.');

  // A past expiry is refused in the form with the domain's message.
  await dialog.getByTestId('share-expiration').fill('01/01/2020 10:00');
  await dialog.getByTestId('share-expiration').press('Tab');
  await expect(dialog.getByText('A validade deve estar no futuro')).toBeVisible();
  await expect(dialog.getByTestId('share-create')).toBeDisabled();

  // Two hours from now (local time of the browser).
  const inTwoHours = await page.evaluate(() => {
    const d = new Date(Date.now() + 2 * 3600_000 + 90_000);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
  });
  await dialog.getByTestId('share-expiration').fill(inTwoHours);
  await dialog.getByTestId('share-expiration').press('Tab');
  const posted = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/rastro/shares',
  );
  await dialog.getByTestId('share-create').click();
  const body = (await posted).postDataJSON() as { deviceId: number; expirationTime: string };
  expect(body.deviceId).toBe(dev.id);
  const link = await dialog.getByTestId('share-link').inputValue();
  expect(link).toMatch(/\/share\/[^/]+$/);

  // Listed under the form with the SPEC §9 countdown (over 3600 s: hours).
  const rows = dialog.locator('[data-testid^="share-row-"]');
  await expect(rows).toHaveCount(1);
  const rowId = Number((await rows.first().getAttribute('data-testid'))!.replace('share-row-', ''));
  await expect(dialog.getByTestId(`share-remaining-${rowId}`)).toHaveText('2 h');

  // The guest opens the link: its home is the shared vehicle's detail on the map (issue #28).
  const guestContext = await browser.newContext();
  const guest = await guestContext.newPage();
  const refused: string[] = [];
  guest.on('response', (r) => void (r.status() === 403 && refused.push(new URL(r.url()).pathname)));
  await guest.addInitScript(() => window.localStorage.setItem('mapStyle', 'offline'));
  await guest.goto(new URL(link).pathname);
  await expect(guest).toHaveURL(new RegExp(`/devices/${dev.id}$`));
  await expect(guest.getByTestId('shell')).toHaveAttribute('data-role', 'shared');
  // what the guest may not use is not offered (the access table): no device list behind a back button, no
  // telemetry (its period of positions is refused to a guest), and nothing asked that the server refuses
  await expect(guest.getByTestId('action-history')).toHaveCount(0);
  await expect(guest.getByTestId('panel-back')).toHaveCount(0);
  await expect(guest.getByTestId('action-telemetry')).toHaveCount(0);
  const guestDevices = await guest.request.get('/api/devices');
  expect(((await guestDevices.json()) as Array<{ id: number }>).map((d) => d.id)).toEqual([dev.id]);

  // Extend to three days: the countdown switches to days.
  await dialog.getByTestId(`share-edit-${rowId}`).click();
  const inThreeDays = await page.evaluate(() => {
    const d = new Date(Date.now() + 3 * 86400_000 + 3600_000);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()} ${p(d.getHours())}:${p(d.getMinutes())}`;
  });
  await dialog.getByTestId('share-edit-expiration').fill(inThreeDays);
  await dialog.getByTestId('share-edit-expiration').press('Tab');
  await dialog.getByTestId('share-edit-save').click();
  await expect(dialog.getByTestId(`share-remaining-${rowId}`)).toHaveText('3 d');

  // The full list replaces the dialog and shows it too, with the vehicle's name.
  await dialog.getByTestId('share-all').click();
  const all = page.getByTestId('shares-dialog');
  await expect(all.getByTestId(`share-row-${rowId}`)).toContainText(`Partilha ${t}`);
  await expect(dialog.getByTestId('share-create')).toHaveCount(0);

  // Revoke (with confirmation): gone from the list, and the guest's session ends at once.
  await all.getByTestId(`share-revoke-${rowId}`).click();
  await expect(all.getByTestId('share-revoke-confirm')).toContainText('perde o acesso na hora');
  await all.getByTestId('share-revoke-yes').click();
  await expect(all.getByTestId(`share-row-${rowId}`)).toHaveCount(0);
  expect((await guest.request.get('/api/devices')).status()).toBe(401);

  // The open page learns it from its live socket and says so; leaving goes back to the link, which has expired.
  await expect(guest.getByTestId('session-expired')).toContainText('Sua sessão expirou!', {
    timeout: 15_000,
  });
  await guest.getByTestId('session-expired-leave').click();
  await expect(guest.getByText('Este link expirou')).toBeVisible();
  await expect(guest).toHaveURL(new RegExp('/share/'));
  expect(refused).toEqual([]);
  await guestContext.close();
});

test('a read-only user gets no share action, and the server refuses the call too', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.readonly.email, accounts.readonly.password);
  const devices = (await (await page.request.get('/api/devices')).json()) as Array<{ id: number }>;
  await page.goto(`/devices/${devices[0].id}`);
  await expect(page.getByTestId('device-detail')).toBeVisible();
  await expect(page.getByTestId('action-share')).toHaveCount(0);
  // The server refuses it too (no browser involved): a read-only user writes nothing.
  const res = await page.request.post('/rastro/shares', {
    data: { deviceId: devices[0].id, expirationTime: new Date(Date.now() + 3600_000).toISOString() },
    headers: { 'accept-language': 'es' },
  });
  expect(res.status()).toBe(400);
  expect(await res.text()).toBe('SecurityException: Write access denied');
});
