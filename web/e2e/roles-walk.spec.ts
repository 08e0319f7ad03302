// Every route of ROUTES walked as each of the seven kinds of user (issue #28): the administrator, the manager, the
// reseller, a sub-user with advanced permission bits, the read-only user, the QR driver and a shared-link guest. What
// each may open comes from the same access table the app asks (routeAllowed, homeOf, userMenuEntries,
// sideMenuLinks): an allowed route shows its title and no "Não foi possível carregar"; a refused one, typed in the
// address bar, lands on that role's home. The menus shown equal the table's. The QR driver and the sub-user walk on
// a 390 px phone.
import { request as requestFactory, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  homeOf,
  permissionStringFromBits,
  sideMenuLinks,
  userMenuEntries,
  viewerRole,
  type PermissionContext,
  type Role,
} from '../../packages/domain/src/index.ts';
import { ROUTES, routeAllowed, type RouteMeta } from '../src/app/routeMeta.ts';
import { accounts, expect, test, useOfflineMap } from './fixtures.ts';

const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 8090}`;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const PASSWORD = 'demo123';
const RESELLER = 'revenda-walk@rastro.demo';
// the sub-user's bits: devices (8), notifications (32), geofences (40) and reports (72) views only
const SUB_BITS = [8, 32, 40, 72];

type Json = Record<string, unknown> & { id: number; attributes: Record<string, unknown> };

const texts = (ns: string) =>
  JSON.parse(
    readFileSync(resolve(import.meta.dirname, `../src/i18n/locales/pt-BR/${ns}.json`), 'utf8'),
  ) as Record<string, unknown>;
const catalogues: Record<string, Record<string, unknown>> = { shell: texts('shell'), auth: texts('auth') };
function title(key: string): string {
  const [ns, path] = key.split(':');
  let node: unknown = catalogues[ns];
  for (const part of path.split('.')) node = (node as Record<string, unknown>)[part];
  return String(node);
}

let admin: APIRequestContext;
let serverBefore: Json;
let subBefore: Json;
let resellerId = 0;
let shareToken = '';

async function json<T = Json>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(res.ok(), `${res.url()}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

test.describe.serial('every route as every role (issue #28)', () => {
  test.beforeAll(async () => {
    admin = await requestFactory.newContext({ baseURL });
    await json(await admin.post('/api/session', { form: accounts.admin }));
    serverBefore = await json(await admin.get('/api/server'));
    const server = {
      ...serverBefore,
      attributes: { ...serverBefore.attributes, 'rastro.enableAdvancedPerms': true },
    };
    await json(await admin.put('/api/server', { data: server }));

    const users = await json<Json[]>(await admin.get('/api/users'));
    subBefore = users.find((u) => u.email === accounts.sub1.email)!;
    const perms = permissionStringFromBits(SUB_BITS);
    await json(
      await admin.put(`/api/users/${subBefore.id}`, {
        data: { ...subBefore, attributes: { ...subBefore.attributes, 'rastro.advancedPerms': perms } },
      }),
    );

    const devices = await json<Json[]>(await admin.get('/api/devices'));
    const old = users.find((u) => u.email === RESELLER);
    if (old) await admin.delete(`/api/users/${old.id}`);
    const reseller = await json(
      await admin.post('/api/users', {
        data: {
          name: 'Revenda Walk',
          email: RESELLER,
          password: PASSWORD,
          userLimit: 5,
          deviceLimit: 5,
          attributes: { 'rastro.reseller': true },
        },
      }),
    );
    resellerId = reseller.id;
    const linked = await admin.post('/api/permissions', {
      data: { userId: resellerId, deviceId: devices[5].id },
    });
    expect(linked.ok(), await linked.text()).toBe(true);

    const expirationTime = new Date(Date.now() + 2 * 3600_000).toISOString();
    const share = await json<{ token: string }>(
      await admin.post('/rastro/shares', { data: { deviceId: devices[6].id, expirationTime } }),
    );
    shareToken = share.token;
  });

  test.afterAll(async () => {
    if (resellerId) await admin.delete(`/api/users/${resellerId}`);
    if (subBefore) await admin.put(`/api/users/${subBefore.id}`, { data: subBefore });
    const now = await json(await admin.get('/api/server'));
    await admin.put('/api/server', { data: { ...serverBefore, id: now.id } });
    await admin.dispose();
  });

  const ROLES: Array<{ role: Role; phone?: boolean; signIn: (page: Page) => Promise<void> }> = [
    { role: 'administrator', signIn: (p) => signIn(p, accounts.admin.email, accounts.admin.password) },
    { role: 'manager', signIn: (p) => signIn(p, accounts.manager.email, accounts.manager.password) },
    { role: 'reseller', signIn: (p) => signIn(p, RESELLER, PASSWORD) },
    { role: 'user', phone: true, signIn: (p) => signIn(p, accounts.sub1.email, accounts.sub1.password) },
    { role: 'readonly', signIn: (p) => signIn(p, accounts.readonly.email, accounts.readonly.password) },
    {
      role: 'qrDriver',
      phone: true,
      signIn: (p) => signIn(p, accounts.driver.email, accounts.driver.password),
    },
    {
      role: 'guest',
      signIn: async (p) => {
        await p.goto(`/share/${encodeURIComponent(shareToken)}`);
        await expect(p).toHaveURL(/\/home$/);
      },
    },
  ];

  for (const { role, phone, signIn: enter } of ROLES) {
    test(`${role}${phone ? ' (390 px)' : ''}: allowed routes render, refused ones land on its home, menus follow the table`, async ({
      browser,
    }) => {
      test.setTimeout(240_000);
      const page = await openPage(browser, phone ? PHONE : DESKTOP);
      await enter(page);
      const viewer = await viewerOf(page);
      expect(viewerRole(viewer)).toBe(role);
      const home = homeOf(viewer);
      const devices = await json<Json[]>(await page.request.get('/api/devices'));
      const deviceId = devices[0]?.id ?? 1;

      // the QR driver and the guest type each address (a full load); the others move inside the app
      const typed = role === 'qrDriver' || role === 'guest';
      await page.goto(home);
      for (const meta of ROUTES.filter((r) => r.access !== 'public')) {
        const path = concrete(meta, deviceId);
        if (typed) await page.goto(path);
        else await page.evaluate((to) => window.history.pushState(null, '', to), path);
        if (routeAllowed(meta, viewer)) await expectRendered(page, meta, path);
        else await expect(page, `${role} ${path} ⇒ ${home}`).toHaveURL((u) => u.pathname === home);
      }
      await expectMenus(page, viewer, phone === true);
      await page.context().close();
    });
  }
});

async function signIn(page: Page, email: string, password: string): Promise<void> {
  const res = await page.request.post('/api/session', { form: { email, password } });
  expect(res.ok(), `sign-in ${email}: ${await res.text()}`).toBe(true);
}

async function openPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ baseURL, locale: 'pt-BR', viewport });
  const page = await context.newPage();
  await useOfflineMap(page);
  return page;
}

/** The viewer as the app sees it: the session's user, the server's settings as that user reads them, the licence. */
async function viewerOf(page: Page): Promise<PermissionContext> {
  const user = await json<NonNullable<PermissionContext['user']>>(await page.request.get('/api/session'));
  const res = await page.request.get('/api/server');
  const server = await json<NonNullable<PermissionContext['server']>>(res);
  const mode = (res.headers()['licensemode'] ?? '').toLowerCase();
  return { user, server, isPlus: !['basic', 'free', 'false'].includes(mode), ns: 'rastro' };
}

function concrete(meta: RouteMeta, deviceId: number): string {
  return meta.path
    .replace(':deviceId', String(deviceId))
    .replace(':id', meta.path.startsWith('/autolink') ? 'rastro-0001' : String(deviceId));
}

async function expectRendered(page: Page, meta: RouteMeta, path: string): Promise<void> {
  await expect(page, `${path} stays`).toHaveURL((u) => u.pathname === path);
  if (meta.screen === 'qrDriver') await expect(page.getByTestId('qr-driver')).toBeVisible();
  else if (meta.shown) await expect(page.getByTestId('panel-title')).toHaveText(title(meta.title));
  else await expect(page.getByTestId('shell')).toBeVisible();
  // once the page's loaders are gone, its data came (or its refusal would show)
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
  await expect(page.getByText(/Não foi possível carregar/), `${path}: no load error`).toHaveCount(0);
}

async function expectMenus(page: Page, viewer: PermissionContext, phone: boolean): Promise<void> {
  await page.goto(homeOf(viewer));
  const links = sideMenuLinks(viewer).map((l) => `menu-link-${l.slice(1)}`);
  const entries = userMenuEntries(viewer).map((e) => `user-menu-${e}`);
  // every link leads to a screen the table opens to this viewer
  for (const link of sideMenuLinks(viewer)) {
    const meta = ROUTES.find((r) => r.path === link);
    expect(meta && routeAllowed(meta, viewer), link).toBe(true);
  }
  const role = viewerRole(viewer);
  if (role === 'qrDriver' || role === 'guest') {
    await expect(page.getByTestId('qr-driver').or(page.getByTestId('shell'))).toBeVisible();
    await expect(page.getByTestId('side-menu')).toHaveCount(0);
    await expect(page.getByTestId('user-menu-button')).toHaveCount(0);
    return;
  }
  await expect(page.getByTestId('shell')).toBeVisible();
  if (phone) await page.getByTestId('menu-burger').click();
  const side = page.getByTestId('side-menu').locator('[data-testid^="menu-link-"]');
  await expect(side.first()).toBeVisible();
  expect(await testIds(side)).toEqual(links);
  if (phone) await page.keyboard.press('Escape');
  await page.getByTestId('user-menu-button').click();
  const menu = page.getByTestId('user-menu').locator('[data-testid^="user-menu-"]');
  await expect(menu.first()).toBeVisible();
  expect(await testIds(menu)).toEqual(entries);
  await page.keyboard.press('Escape');
}

async function testIds(locator: ReturnType<Page['locator']>): Promise<string[]> {
  return locator.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid') ?? ''));
}
