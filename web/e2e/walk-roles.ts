// The seven kinds of user of the route walks (issue #28, #29): the administrator, the manager, a reseller, a sub-user
// with advanced permission bits, the read-only user, the QR driver and a shared-link guest. prepareRoles() makes
// what the demo data lacks (the reseller, the sub-user's bits, a share link) and restoreRoles() puts it back;
// roles-walk, texts-walk and a11y-walk share them, with the route helpers below.
import { request as requestFactory, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import {
  homeOf,
  permissionStringFromBits,
  viewerRole,
  type PermissionContext,
  type Role,
} from '../../packages/domain/src/index.ts';
import { ROUTES, routeAllowed, type RouteMeta } from '../src/app/routeMeta.ts';
import { accounts, expect, useOfflineMap } from './fixtures.ts';
import { trackRequests } from './texts-walk-checks.ts';
import { localeFile, type WalkLocale } from './walk-locales.ts';

export const walkBaseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 8090}`;
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };
const PASSWORD = 'demo123';
const RESELLER = 'revenda-walk@rastro.demo';
// the sub-user's bits: devices (8), notifications (32), geofences (40) and reports (72) views only
const SUB_BITS = [8, 32, 40, 72];

export type Json = Record<string, unknown> & { id: number; attributes: Record<string, unknown> };

/** The text of an i18n key (namespace:path) in a locale's files. */
export function localeText(key: string, locale: WalkLocale = 'pt-BR'): string {
  const [ns, path] = key.split(':');
  let node: unknown = localeFile(locale, ns);
  for (const part of path.split('.')) node = (node as Record<string, unknown>)[part];
  return String(node);
}

export async function json<T = Json>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(res.ok(), `${res.url()}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

interface Prepared {
  admin: APIRequestContext;
  serverBefore: Json;
  subBefore: Json;
  resellerId: number;
  shareToken: string;
}
let prepared: Prepared | null = null;

/** Turns the advanced permissions on, gives the sub-user its bits, makes the reseller and a guest's share link. */
export async function prepareRoles(): Promise<void> {
  const admin = await requestFactory.newContext({ baseURL: walkBaseURL });
  await json(await admin.post('/api/session', { form: accounts.admin }));
  const serverBefore = await json(await admin.get('/api/server'));
  const server = {
    ...serverBefore,
    attributes: { ...serverBefore.attributes, 'rastro.enableAdvancedPerms': true },
  };
  await json(await admin.put('/api/server', { data: server }));

  const users = await json<Json[]>(await admin.get('/api/users'));
  const subBefore = users.find((u) => u.email === accounts.sub1.email)!;
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
  prepared = { admin, serverBefore, subBefore, resellerId: reseller.id, shareToken: '' };
  const linked = await admin.post('/api/permissions', {
    data: { userId: reseller.id, deviceId: devices[5].id },
  });
  expect(linked.ok(), await linked.text()).toBe(true);

  const expirationTime = new Date(Date.now() + 2 * 3600_000).toISOString();
  const share = await json<{ token: string }>(
    await admin.post('/rastro/shares', { data: { deviceId: devices[6].id, expirationTime } }),
  );
  prepared.shareToken = share.token;
}

/** Puts back what prepareRoles changed. */
export async function restoreRoles(): Promise<void> {
  if (!prepared) return;
  const { admin, serverBefore, subBefore, resellerId } = prepared;
  prepared = null;
  if (resellerId) await admin.delete(`/api/users/${resellerId}`);
  if (subBefore) await admin.put(`/api/users/${subBefore.id}`, { data: subBefore });
  const now = await json(await admin.get('/api/server'));
  await admin.put('/api/server', { data: { ...serverBefore, id: now.id } });
  await admin.dispose();
}

export interface WalkRole {
  role: Role;
  /** roles-walk walks this one on a 390 px phone. */
  phone?: boolean;
  signIn: (page: Page) => Promise<void>;
}

export const ROLES: readonly WalkRole[] = [
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
      await p.goto(`/share/${encodeURIComponent(prepared?.shareToken ?? '')}`);
      // the guest's home is its shared vehicle's detail (homeOf, issue #28)
      await expect(p).toHaveURL(/\/devices\/\d+$/);
    },
  },
];

async function signIn(page: Page, email: string, password: string): Promise<void> {
  const res = await page.request.post('/api/session', { form: { email, password } });
  expect(res.ok(), `sign-in ${email}: ${await res.text()}`).toBe(true);
}

/** A new browser page of its own context (light or dark colour scheme: the app follows the system's). */
export async function openPage(
  browser: Browser,
  viewport: { width: number; height: number },
  locale: WalkLocale = 'pt-BR',
  colorScheme: 'light' | 'dark' = 'light',
): Promise<Page> {
  const context = await browser.newContext({ baseURL: walkBaseURL, locale, viewport, colorScheme });
  const page = await context.newPage();
  trackRequests(page);
  await useOfflineMap(page);
  return page;
}

/** The viewer as the app sees it: the session's user, the server's settings as that user reads them, the licence. */
export async function viewerOf(page: Page): Promise<PermissionContext> {
  const user = await json<NonNullable<PermissionContext['user']>>(await page.request.get('/api/session'));
  const res = await page.request.get('/api/server');
  const server = await json<NonNullable<PermissionContext['server']>>(res);
  const mode = (res.headers()['licensemode'] ?? '').toLowerCase();
  return { user, server, isPlus: !['basic', 'free', 'false'].includes(mode), ns: 'rastro' };
}

/** A route's pattern with its parameters filled in (a device id; the autolink code of the first demo device). */
function concrete(meta: RouteMeta, deviceId: number): string {
  return meta.path
    .replace(':deviceId', String(deviceId))
    .replace(':id', meta.path.startsWith('/autolink') ? 'rastro-0001' : String(deviceId));
}

export interface WalkedRoute {
  meta: RouteMeta;
  /** The address walked (concrete). */
  path: string;
  /** The access table opens it to the viewer. */
  allowed: boolean;
  /** The viewer's home (the guest's: its one shared vehicle). */
  home: string;
}

/**
 * The route loop of the walks: from the viewer's home, each signed-in route of ROUTES in order (with `refused`, the
 * ones the access table refuses too), a demo vehicle's id and the first autolink code filled in; the QR driver and
 * the guest type each address (a full load), the others move inside the app. `visit` checks each page.
 */
export async function walkAllowedRoutes(
  page: Page,
  viewer: PermissionContext,
  visit: (route: WalkedRoute) => Promise<void>,
  { refused = false }: { refused?: boolean } = {},
): Promise<void> {
  const devices = await json<Json[]>(await page.request.get('/api/devices'));
  const home = homeOf(
    viewer,
    devices.map((d) => d.id),
  );
  const deviceId = devices[0]?.id ?? 1;
  const role = viewerRole(viewer);
  const typed = role === 'qrDriver' || role === 'guest';
  await page.goto(home);
  for (const meta of ROUTES) {
    if (meta.access === 'public') continue;
    const allowed = routeAllowed(meta, viewer);
    if (!allowed && !refused) continue;
    const path = concrete(meta, deviceId);
    if (typed) await page.goto(path);
    else await page.evaluate((to) => window.history.pushState(null, '', to), path);
    await visit({ meta, path, allowed, home });
  }
}

const LOAD_ERROR: Record<WalkLocale, RegExp> = {
  'pt-BR': /Não foi possível carregar/,
  es: /No se pudo cargar/,
  'en-US': /Could not load/,
};

/** The route stays, shows its title (or the map, or the QR driver's screen), its loaders are gone, no load error. */
export async function expectRendered(
  page: Page,
  meta: RouteMeta,
  path: string,
  locale: WalkLocale = 'pt-BR',
): Promise<void> {
  await expect(page, `${path} stays`).toHaveURL((u) => u.pathname === path);
  if (meta.screen === 'qrDriver') await expect(page.getByTestId('qr-driver')).toBeVisible();
  else if (meta.shown)
    await expect(page.getByTestId('panel-title')).toHaveText(localeText(meta.title, locale));
  else await expect(page.getByTestId('shell')).toBeVisible();
  // once the page's loaders are gone, its data came (or its refusal would show)
  await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
  await expect(page.getByText(LOAD_ERROR[locale]), `${path}: no load error`).toHaveCount(0);
}
