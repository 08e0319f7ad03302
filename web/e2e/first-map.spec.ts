// The first map and the roles (issue #28): the first view is fitted to the vehicles each user can see (a
// sub-user far from the server's centre, a QR driver, a share guest), an empty fleet gets the server's centre and
// a hint, /qr-driver is for QR drivers only, the device detail names the driver, and the QR driver's logout control
// never covers the zoom buttons.
import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { accounts, expect, loginAs, test } from './fixtures.ts';
import { createDevice, sendOsmAnd, tag, type MadeDevice } from './map-helpers.ts';

const ADMIN = { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` };
/** The demo's users and server sit on São Paulo at zoom 12 (server/src/live/simulator/seed.ts). */
const SAO_PAULO = { latitude: -23.5505, longitude: -46.6333, zoom: 12 };

async function makeUser(
  request: APIRequestContext,
  t: string,
  extra: Record<string, unknown> = {},
): Promise<{ id: number; email: string; password: string }> {
  const email = `first-map-${t}@rastro.test`;
  const password = 'secret-pass';
  const res = await request.post('/api/users', {
    headers: ADMIN,
    data: { name: `First map ${t}`, email, password, ...extra },
  });
  if (!res.ok()) throw new Error(`user not created: ${res.status()} ${await res.text()}`);
  return { id: ((await res.json()) as { id: number }).id, email, password };
}

async function link(request: APIRequestContext, userId: number, deviceId: number): Promise<void> {
  const res = await request.post('/api/permissions', { headers: ADMIN, data: { userId, deviceId } });
  if (res.status() !== 204) throw new Error(`link failed: ${res.status()} ${await res.text()}`);
}

/** A device of the admin's, with one position (it does not move afterwards). */
async function placedDevice(
  request: APIRequestContext,
  name: string,
  uniqueId: string,
  lat: number,
  lon: number,
  attributes: Record<string, unknown> = {},
): Promise<MadeDevice> {
  const dev = await createDevice(request, { name, uniqueId, attributes });
  await sendOsmAnd(request, { id: uniqueId, lat, lon, speed: 0 });
  return dev;
}

/**
 * Waits for the given devices' markers, then checks each is inside map.getBounds() and drawn inside the map with
 * room for its label (the label hangs below the icon).
 */
async function expectAllInView(page: Page, ids: number[]): Promise<void> {
  await expect
    .poll(() => page.evaluate((ids) => ids.every((id) => !!window.__rastroMap?.positionOf(id)), ids), {
      timeout: 30_000,
    })
    .toBe(true);
  const seen = await page.evaluate((ids) => {
    const m = window.__rastroMap!;
    const b = m.map.getBounds();
    const r = m.map.getCanvas().getBoundingClientRect();
    return ids.map((id) => {
      const xy = m.positionOf(id)!;
      const p = m.screenPointOf(id)!;
      return {
        id,
        inBounds: b.contains(xy),
        left: p.x - r.left,
        right: r.right - p.x,
        top: p.y - r.top,
        bottom: r.bottom - p.y,
      };
    });
  }, ids);
  for (const s of seen) {
    expect(s.inBounds, `device ${s.id} inside map.getBounds()`).toBe(true);
    expect(s.left, `device ${s.id} left room`).toBeGreaterThanOrEqual(30);
    expect(s.right, `device ${s.id} right room`).toBeGreaterThanOrEqual(30);
    expect(s.top, `device ${s.id} top room`).toBeGreaterThanOrEqual(20);
    expect(s.bottom, `device ${s.id} room for the label`).toBeGreaterThanOrEqual(45);
  }
}

const intersects = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

test('a sub-user whose vehicles are far from the server centre sees all three on the first map', async ({
  page,
}) => {
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  const t = tag();
  const request = page.request;
  const user = await makeUser(request, t, SAO_PAULO);
  const spots: Array<[number, number]> = [
    [-3.1, -60.0],
    [-30.03, -51.2],
    [-8.05, -34.9],
  ];
  const devices: MadeDevice[] = [];
  for (const [i, [lat, lon]] of spots.entries()) {
    const dev = await placedDevice(request, `Longe ${i} ${t}`, `longe-${i}-${t}`, lat, lon);
    await link(request, user.id, dev.id);
    devices.push(dev);
  }
  await loginAs(page, user.email, user.password);
  await page.goto('/home');
  await expectAllInView(
    page,
    devices.map((d) => d.id),
  );
  // the device list opened first: the side panel is kept clear as well
  await page.goto('/devices');
  await expectAllInView(
    page,
    devices.map((d) => d.id),
  );
  const panel = await page.getByTestId('panel').boundingBox();
  for (const d of devices) {
    const p = await page.evaluate((id) => window.__rastroMap!.screenPointOf(id)!, d.id);
    expect(p.x, `device ${d.id} right of the panel`).toBeGreaterThan(panel!.x + panel!.width);
  }
});

test('signing in through the form: the map made while typing is the one the shell shows, with the vehicle on it', async ({
  page,
}) => {
  // decision 45: at the first key on /login the live map is made hidden; the signed-in shell adopts it
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  const t = tag();
  const user = await makeUser(page.request, t);
  const dev = await placedDevice(page.request, `Cedo ${t}`, `cedo-${t}`, -23.56, -46.64);
  await link(page.request, user.id, dev.id);
  await page.context().clearCookies();

  await page.goto('/login');
  await page.getByTestId('login-email').fill(user.email);
  await page.getByTestId('login-password').fill(user.password);
  const early = page.locator('[data-early-map]');
  await expect(early).toBeAttached({ timeout: 30_000 });
  await expect(early).toBeHidden();
  await page.evaluate(() => {
    (window as unknown as { earlyBox: Element | null }).earlyBox = document.querySelector('[data-early-map]');
  });
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/home$/);
  await expectAllInView(page, [dev.id]);
  const adopted = await page.evaluate(() => {
    const box = (window as unknown as { earlyBox: Element | null }).earlyBox;
    return {
      inShell: !!box?.isConnected && !!box.contains(window.__rastroMap!.map.getCanvas()),
      stillHidden: !!document.querySelector('[data-early-map]'),
      maps: document.querySelectorAll('.maplibregl-map').length,
    };
  });
  expect(adopted).toEqual({ inShell: true, stillHidden: false, maps: 1 });
});

test('on a phone (390 × 844) the first map shows both vehicles of a user', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'pt-BR' });
  const page = await context.newPage();
  await page.addInitScript(() => window.localStorage.setItem('mapStyle', 'offline'));
  try {
    await loginAs(page, accounts.admin.email, accounts.admin.password);
    const t = tag();
    const user = await makeUser(page.request, t, SAO_PAULO);
    const a = await placedDevice(page.request, `Norte ${t}`, `norte-${t}`, -1.45, -48.5);
    const b = await placedDevice(page.request, `Sul ${t}`, `sul-${t}`, -25.43, -49.27);
    for (const d of [a, b]) await link(page.request, user.id, d.id);
    await loginAs(page, user.email, user.password);
    await page.goto('/home');
    await expectAllInView(page, [a.id, b.id]);
  } finally {
    await context.close();
  }
});

/** A QR driver of its own (driver record, user, one vehicle far from the server's centre). */
async function makeQrDriver(
  browser: Browser,
): Promise<{ email: string; password: string; deviceId: number }> {
  const t = tag();
  const admin = await browser.newContext();
  try {
    const request = admin.request;
    expect((await request.post('/api/session', { form: accounts.admin })).ok()).toBe(true);
    const driverRes = await request.post('/api/drivers', {
      data: { name: `Condutor ${t}`, uniqueId: `QR-${t}`, attributes: {} },
    });
    expect(driverRes.ok()).toBe(true);
    const driver = (await driverRes.json()) as { id: number };
    const user = await makeUser(request, t, { attributes: { 'rastro.isQrDriverId': driver.id } });
    const dev = await placedDevice(request, `Van QR ${t}`, `vanqr-${t}`, -3.73, -38.52, {
      'rastro.qrDriver': true,
    });
    await link(request, user.id, dev.id);
    return { email: user.email, password: user.password, deviceId: dev.id };
  } finally {
    await admin.close();
  }
}

const SIZES = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

/** Opens /home as the user in a browser context of the given size; `check` runs on the page. */
async function asUser(
  browser: Browser,
  viewport: { width: number; height: number },
  who: { email: string; password: string },
  check: (page: Page) => Promise<void>,
): Promise<void> {
  const context = await browser.newContext({ viewport, locale: 'pt-BR' });
  const page = await context.newPage();
  await page.addInitScript(() => window.localStorage.setItem('mapStyle', 'offline'));
  try {
    await loginAs(page, who.email, who.password);
    await page.goto('/home');
    await expect(page.getByTestId('shell')).toHaveAttribute('data-role', 'driver');
    await check(page);
  } finally {
    await context.close();
  }
}

test('the QR driver sees its vehicle with its label on the first map (desktop and phone)', async ({
  browser,
}) => {
  const driver = await makeQrDriver(browser);
  for (const viewport of SIZES)
    await asUser(browser, viewport, driver, (page) => expectAllInView(page, [driver.deviceId]));
});

test("the QR driver's logout and way-back controls never cover the zoom buttons (desktop and phone)", async ({
  browser,
}) => {
  const driver = await makeQrDriver(browser);
  for (const viewport of SIZES)
    await asUser(browser, viewport, driver, async (page) => {
      const logout = await page.getByTestId('driver-logout').boundingBox();
      const view = await page.getByTestId('driver-view').boundingBox();
      expect(logout).toBeTruthy();
      expect(view).toBeTruthy();
      expect(intersects(logout!, view!), `logout over the way back at ${viewport.width}`).toBe(false);
      for (const control of ['.maplibregl-ctrl-zoom-in', '.maplibregl-ctrl-zoom-out']) {
        const box = await page.locator(control).boundingBox();
        expect(box, `${control} at ${viewport.width}`).toBeTruthy();
        expect(intersects(logout!, box!), `logout over ${control} at ${viewport.width}`).toBe(false);
        expect(intersects(view!, box!), `the way back over ${control} at ${viewport.width}`).toBe(false);
      }
      // the map leads back to the driver's own view (check-in, check-out)
      await page.getByRole('button', { name: 'Meu check-in' }).click();
      await expect(page).toHaveURL(/\/qr-driver$/);
      await expect(page.getByTestId('qr-driver')).toBeVisible();
    });
});

test('a share guest lands on its shared vehicle: its detail, the vehicle in view on the map', async ({
  page,
  browser,
}) => {
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await placedDevice(page.request, `Partilhado ${t}`, `partilhado-${t}`, -1.45, -48.5);
  const res = await page.request.post('/rastro/shares', {
    data: { deviceId: dev.id, expirationTime: new Date(Date.now() + 3600_000).toISOString() },
  });
  expect(res.ok()).toBe(true);
  const { token } = (await res.json()) as { token: string };
  const guestContext = await browser.newContext({ locale: 'pt-BR' });
  const guest = await guestContext.newPage();
  await guest.addInitScript(() => window.localStorage.setItem('mapStyle', 'offline'));
  try {
    await guest.goto(`/share/${token}`);
    // its home is its shared vehicle: the detail, the map on it (issue #28)
    await expect(guest).toHaveURL(new RegExp(`/devices/${dev.id}$`));
    await expect(guest.getByTestId('device-detail')).toBeVisible();
    await expect(guest.getByTestId('shell')).toHaveAttribute('data-role', 'shared');
    await expectAllInView(guest, [dev.id]);
  } finally {
    await guestContext.close();
  }
});

test('an empty fleet opens on the server centre with a hint to add a device', async ({ page }) => {
  const t = tag();
  const user = await makeUser(page.request, t);
  await loginAs(page, user.email, user.password);
  await page.goto('/home');
  await expect(page.getByTestId('map-empty-hint')).toHaveText(
    'Você ainda não tem veículos. Adicione um dispositivo para vê-lo no mapa.',
  );
  const view = await page.evaluate(() => {
    const m = window.__rastroMap!.map;
    const c = m.getCenter();
    return { lat: c.lat, lon: c.lng, zoom: m.getZoom() };
  });
  expect(view.lat).toBeCloseTo(SAO_PAULO.latitude, 3);
  expect(view.lon).toBeCloseTo(SAO_PAULO.longitude, 3);
  expect(view.zoom).toBeCloseTo(SAO_PAULO.zoom, 3);
  // in Spanish too
  await page.goto('/home?locale=es');
  await expect(page.getByTestId('map-empty-hint')).toHaveText(
    'Aún no tienes vehículos. Agrega un dispositivo para verlo en el mapa.',
  );
});

test('/qr-driver is for QR drivers: an administrator lands on /home with no sign-out offered', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  await page.goto('/qr-driver');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId('shell')).toHaveAttribute('data-role', 'user');
  await expect(page.getByTestId('driver-logout')).toHaveCount(0);
  await expect(page.getByTestId('qr-driver')).toHaveCount(0);
  await page.goto('/qr-driver/scan/1');
  await expect(page).toHaveURL(/\/home$/);
});

test('the device detail names the driver (the code follows in smaller text)', async ({ page, loginAs }) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const created = await page.request.post('/api/drivers', {
    data: { name: `Joana ${t}`, uniqueId: `MOT-${t}`, attributes: {} },
  });
  expect(created.ok()).toBe(true);
  const dev = await createDevice(page.request, { name: `Caminhão ${t}`, uniqueId: `cam-${t}` });
  await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.5, lon: -46.6, driverUniqueId: `MOT-${t}` });
  await page.goto(`/devices/${dev.id}`);
  const row = page.getByTestId('detail-driver');
  await expect(row.getByTestId('detail-driver-name')).toHaveText(`Joana ${t}`);
  await expect(row.getByTestId('detail-driver-code')).toHaveText(`MOT-${t}`);
});
