// The signed-in shell against the real embedded server: menus per role (SPEC §2 tables), shared-link guests,
// the changelog's 10 quick clicks, panel navigation, the mute toggle, mobile layout and maintenance.
import type { APIRequestContext, Page } from '@playwright/test';
import { test, expect, accounts, startIsolatedServer, removeDataDir } from './fixtures.ts';

const ADMIN = { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` };

async function sideLinks(page: Page): Promise<string[]> {
  await expect(page.getByTestId('side-menu')).toBeVisible();
  return page
    .getByTestId('side-menu')
    .locator('[data-testid^="menu-link-"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.replace('menu-link-', '/')));
}

async function userMenu(page: Page): Promise<string[]> {
  await page.getByTestId('user-menu-button').click();
  const menu = page.getByTestId('user-menu');
  await expect(menu).toBeVisible();
  const items = await menu
    .locator('[data-testid^="user-menu-"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!.replace('user-menu-', '')));
  return items;
}

/** Bits as a 32-hex permission string (bit i = i-th bit left to right, MSB first). */
function permString(bits: number[]): string {
  const nibbles = new Array<number>(32).fill(0);
  for (const b of bits) nibbles[b >> 2] |= 8 >> (b & 3);
  return nibbles.map((n) => n.toString(16)).join('');
}

async function userByEmail(request: APIRequestContext, email: string) {
  const res = await request.get('/api/users', { headers: ADMIN });
  const users = (await res.json()) as { id: number; email: string; attributes: Record<string, unknown> }[];
  return users.find((u) => u.email === email)!;
}

test.describe('menus per role', () => {
  test('administrator: every side link including /server-health, and the admin user-menu entries', async ({
    page,
    loginAs,
  }) => {
    await loginAs(accounts.admin.email, accounts.admin.password);
    await page.goto('/home');
    expect(await sideLinks(page)).toEqual([
      '/dashboard',
      '/devices',
      '/reports',
      '/geofence',
      '/commands',
      '/groups',
      '/server-health',
      '/notifications',
      '/monitoring',
    ]);
    // Plus server, billing attribute off: no Integrations, Billing management or My Invoices.
    expect(await userMenu(page)).toEqual([
      'account',
      'advancedLogs',
      'theme',
      'users',
      'computed',
      'server',
      'notifications',
      'events',
      'drivers',
      'calendars',
      'maintenance',
      'logout',
    ]);
    await page.keyboard.press('Escape');
    await page.getByTestId('menu-link-server-health').click();
    await expect(page).toHaveURL(/\/server-health$/);
    await expect(page.getByTestId('panel-title')).toHaveText('Saúde do servidor');
  });

  test('read-only user: no /server-health, no admin or Plus-admin entries; /server-health sends home', async ({
    page,
    loginAs,
  }) => {
    await loginAs(accounts.readonly.email, accounts.readonly.password);
    await page.goto('/home');
    expect(await sideLinks(page)).toEqual([
      '/dashboard',
      '/devices',
      '/reports',
      '/geofence',
      '/commands',
      '/groups',
      '/notifications',
    ]);
    // no "Usuários": a read-only user manages no users (the access table, issue #28)
    expect(await userMenu(page)).toEqual([
      'account',
      'computed',
      'notifications',
      'events',
      'drivers',
      'calendars',
      'maintenance',
      'logout',
    ]);
    await page.keyboard.press('Escape');
    await page.goto('/server-health');
    await expect(page).toHaveURL(/\/home$/);
  });

  test('a user with an advanced permission string sees only the granted areas', async ({
    page,
    request,
    loginAs,
  }) => {
    // read as the administrator: an anonymous caller gets only the sign-in pages' attributes (allow-list)
    const serverRes = await request.get('/api/server', { headers: ADMIN });
    const server = await serverRes.json();
    const sub = await userByEmail(request, accounts.sub2.email);
    const put = (path: string, body: unknown) => request.put(path, { headers: ADMIN, data: body });
    try {
      expect(
        (
          await put('/api/server', {
            ...server,
            attributes: { ...server.attributes, 'rastro.enableAdvancedPerms': true },
          })
        ).ok(),
      ).toBe(true);
      const perms = permString([8, 72, 36]); // devices, reports, events
      expect(
        (
          await put(`/api/users/${sub.id}`, {
            ...sub,
            attributes: { ...sub.attributes, 'rastro.advancedPerms': perms },
          })
        ).ok(),
      ).toBe(true);
      await loginAs(accounts.sub2.email, accounts.sub2.password);
      await page.goto('/home');
      // /notifications needs its own bit (the access table, issue #28)
      expect(await sideLinks(page)).toEqual(['/dashboard', '/devices', '/reports']);
      expect(await userMenu(page)).toEqual(['account', 'events', 'logout']);
    } finally {
      await put('/api/server', server);
      await put(`/api/users/${sub.id}`, { ...sub, password: null });
    }
  });

  test('shared-link guest: no menu, full-width map, countdown, then the session-expired warning', async ({
    page,
    request,
  }) => {
    const devices = (await (await request.get('/api/devices?all=true', { headers: ADMIN })).json()) as {
      id: number;
    }[];
    const start = Date.now();
    const expiration = new Date(start + 90_000).toISOString();
    const share = await request.post('/api/share/device', {
      headers: ADMIN,
      form: { deviceId: String(devices[0].id), expiration },
    });
    expect(share.ok(), await share.text()).toBe(true);
    const token = (await share.text()).trim();

    // Only Date is fixed (timers keep running), so the countdown's 1 s tick reads the time we set.
    await page.clock.setFixedTime(start);
    await page.goto(`/share/${token}`);
    // the guest's home is its shared vehicle (issue #28)
    await expect(page).toHaveURL(new RegExp(`/devices/${devices[0].id}$`));
    const shell = page.getByTestId('shell');
    await expect(shell).toHaveAttribute('data-role', 'shared');
    await expect(page.getByTestId('side-menu')).toHaveCount(0);
    await expect(page.getByTestId('user-menu-button')).toHaveCount(0);
    await expect(page.getByTestId('countdown')).toHaveText(/Expira em 1 minuto/);
    const mapBox = await page.getByTestId('map-area').boundingBox();
    const viewport = page.viewportSize()!;
    expect(Math.round(mapBox!.width)).toBe(viewport.width);

    await page.clock.setFixedTime(start + 61_000);
    await expect(page.getByTestId('countdown')).toHaveText('Expira em 29 segundos');
    await page.clock.setFixedTime(start + 91_000);
    const dialog = page.getByRole('dialog', { name: 'Atenção' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('Sua sessão expirou!');
    // the server's clock is not the page's: the link ends there too, as it would at its expiry
    const revoked = await request.post('/api/session/token/revoke', { headers: ADMIN, form: { token } });
    expect(revoked.status()).toBe(204);
    // leaving goes back to the link (the tab remembers it), which says it has expired
    await dialog.getByRole('button', { name: 'Sair' }).click();
    await expect(page).toHaveURL(new RegExp(`/share/`));
    await expect(page.getByText('Este link expirou')).toBeVisible();
  });
});

test.describe('changelog', () => {
  test('opens on the tenth quick click of an administrator, not on slow clicks', async ({
    page,
    loginAs,
  }) => {
    // Only Date is driven (timers keep running): the click rule reads Date.now.
    let now = Date.now();
    await page.clock.setFixedTime(now);
    await loginAs(accounts.admin.email, accounts.admin.password);
    await page.goto('/home');
    await page.getByTestId('user-menu-button').click();
    const version = page.getByTestId('version-text');
    await expect(version).toHaveText('Versão v3.2.1');

    // slow: each click 2.1 s after the previous one
    for (let i = 0; i < 10; i++) {
      await version.click();
      now += 2100;
      await page.clock.setFixedTime(now);
    }
    await expect(page.getByTestId('changelog-dialog')).toHaveCount(0);

    // quick: nine clicks are not enough, the tenth opens it
    for (let i = 0; i < 9; i++) {
      await version.click();
      now += 1900;
      await page.clock.setFixedTime(now);
    }
    await expect(page.getByTestId('changelog-dialog')).toHaveCount(0);
    await version.click();
    const dialog = page.getByRole('dialog', { name: 'Novidades' });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('v3.2.1');
    await expect(dialog).toContainText('v3.0.0');
    await expect(dialog).toContainText('Segurança');
    const box = await page.locator('.mantine-Modal-content').boundingBox();
    expect(Math.round(box!.width)).toBe(750);
  });

  test('never opens for a non-administrator', async ({ page, loginAs }) => {
    await loginAs(accounts.manager.email, accounts.manager.password);
    await page.goto('/home');
    await page.getByTestId('user-menu-button').click();
    const version = page.getByTestId('version-text');
    for (let i = 0; i < 12; i++) await version.click();
    await expect(page.getByTestId('changelog-dialog')).toHaveCount(0);
  });
});

test('panel: back follows backBtn or history, close goes to /home', async ({ page, loginAs }) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  await page.goto('/reports');
  await expect(page.getByTestId('panel-title')).toHaveText('Relatórios');
  await page.getByTestId('panel-expand').click();
  await expect(page).toHaveURL(/\/reports\?expand=true$/);
  await expect(page.getByTestId('panel')).toHaveAttribute('data-expanded', 'true');
  await page.getByTestId('panel-expand').click();
  await expect(page.getByTestId('panel')).toHaveAttribute('data-expanded', 'false');
  await page.getByTestId('report-travels').click();
  await expect(page).toHaveURL(/\/reports\/travels$/);
  await expect(page.getByTestId('panel-title')).toHaveText('Viagens');
  await page.getByTestId('panel-back').click();
  await expect(page).toHaveURL(/\/reports$/);
  await page.getByTestId('panel-close').click();
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId('panel')).toHaveCount(0);
});

test('the mute toggle persists in localStorage isMuted', async ({ page, loginAs }) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  await page.goto('/home');
  const toggle = page.getByTestId('mute-toggle');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  expect(await page.evaluate(() => localStorage.getItem('isMuted'))).toBe('true');
  await page.reload();
  await expect(page.getByTestId('mute-toggle')).toHaveAttribute('aria-pressed', 'true');
});

test.describe('mobile at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('menu in a drawer, full-width panel that minimises and expands', async ({ page, loginAs }) => {
    await loginAs(accounts.admin.email, accounts.admin.password);
    await page.goto('/reports');
    await expect(page.getByTestId('shell')).toHaveAttribute('data-mobile', 'true');
    await expect(page.getByTestId('side-menu')).toHaveCount(0);
    const panel = page.getByTestId('panel');
    expect(Math.round((await panel.boundingBox())!.width)).toBe(390);
    await page.getByTestId('panel-minimise').click();
    await expect(panel).toHaveAttribute('data-minimised', 'true');
    await expect(page.getByTestId('report-stops')).toHaveCount(0);
    await page.getByTestId('panel-minimise').click();
    await expect(panel).toHaveAttribute('data-minimised', 'false');
    await page.getByTestId('menu-burger').click();
    await page.getByTestId('menu-link-geofence').click();
    await expect(page).toHaveURL(/\/geofence$/);
    await expect(page.getByTestId('side-menu')).toHaveCount(0);
  });

  test('dialogs fill the screen: My Account opens full width and full height', async ({ page, loginAs }) => {
    await loginAs(accounts.admin.email, accounts.admin.password);
    await page.goto('/home');
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-account').click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog).toHaveClass(/rastro-modal-content/);
    // the open animation scales the box: wait for it to settle at the screen's size
    await expect
      .poll(async () => {
        const b = await dialog.boundingBox();
        return b ? [Math.round(b.x), Math.round(b.width), Math.round(b.height)] : null;
      })
      .toEqual([0, 390, 844]);
  });
});

test('a stopped server sends the app to /maintenance', async ({ page }) => {
  const server = await startIsolatedServer();
  try {
    await page.goto(`${server.url}/login`);
    await expect(page.getByTestId('login-form')).toBeVisible();
    await server.stop();
    // the login call gets no answer
    await page.getByTestId('login-email').fill('admin');
    await page.getByTestId('login-password').fill('admin');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-error')).toHaveAttribute('data-code', 'CONNECTION_ERROR');
    // navigating to a protected page cannot check the session: maintenance
    await page.evaluate(() => {
      window.history.pushState({}, '', '/devices');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page).toHaveURL(/\/maintenance$/);
    await expect(page.getByTestId('maintenance')).toBeVisible();
    // back up: retry reaches the app again
    await server.restart();
    await page.getByTestId('maintenance-retry').click();
    await expect(page).toHaveURL(/\/login\?to=%2Fhome$/);
  } finally {
    await server.stop();
    removeDataDir(server.dataDir);
  }
});

test('header weather: IP lookup, IP geolocation, then /api/weather; the user menu opens /computed', async ({
  page,
  loginAs,
}) => {
  const weatherCalls: string[] = [];
  await page.route('https://api.ipify.org/**', (r) => r.fulfill({ json: { ip: '203.0.113.7' } }));
  await page.route('https://ipapi.co/**', (r) =>
    r.fulfill({ json: { latitude: -23.55, longitude: -46.63, city: 'São Paulo' } }),
  );
  await page.route('**/api/weather?**', (r) => {
    weatherCalls.push(r.request().url());
    return r.fulfill({ json: { current_weather: { temperature: 23.6, wind_speed: 9, weathercode: 2 } } });
  });
  await loginAs(accounts.admin.email, accounts.admin.password);
  await page.goto('/home');
  const widget = page.getByTestId('weather-widget');
  await expect(widget.getByTestId('clock')).toHaveText(/^\d{2}:\d{2}$/);
  await expect(widget).toContainText('24 °C');
  await expect(widget).toContainText('São Paulo');
  expect(weatherCalls[0]).toMatch(/\/api\/weather\?lat=-23\.55&lon=-46\.63$/);

  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('user-menu-computed').click();
  await expect(page).toHaveURL(/\/computed$/);
  await expect(page.getByTestId('panel-title')).toHaveText('Atributos calculados');
});
