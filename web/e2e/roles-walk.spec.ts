// Every route of ROUTES walked as each of the seven kinds of user (issue #28): the administrator, the manager, the
// reseller, a sub-user with advanced permission bits, the read-only user, the QR driver and a shared-link guest. What
// each may open comes from the same access table the app asks (routeAllowed, homeOf, userMenuEntries,
// sideMenuLinks): an allowed route shows its title and no "Não foi possível carregar"; a refused one, typed in the
// address bar, lands on that role's home. The menus shown equal the table's. The QR driver and the sub-user walk on
// a 390 px phone.
import type { Page } from '@playwright/test';
import {
  homeOf,
  sideMenuLinks,
  userMenuEntries,
  viewerRole,
  type PermissionContext,
} from '../../packages/domain/src/index.ts';
import { ROUTES, routeAllowed } from '../src/app/routeMeta.ts';
import { expect, test } from './fixtures.ts';
import {
  DESKTOP,
  PHONE,
  ROLES,
  expectRendered,
  openPage,
  prepareRoles,
  restoreRoles,
  viewerOf,
  walkAllowedRoutes,
} from './walk-roles.ts';

test.describe.serial('every route as every role (issue #28)', () => {
  test.beforeAll(prepareRoles);
  test.afterAll(restoreRoles);

  for (const { role, phone, signIn: enter } of ROLES) {
    test(`${role}${phone ? ' (390 px)' : ''}: allowed routes render, refused ones land on its home, menus follow the table`, async ({
      browser,
    }) => {
      test.setTimeout(240_000);
      const page = await openPage(browser, phone ? PHONE : DESKTOP);
      await enter(page);
      const viewer = await viewerOf(page);
      expect(viewerRole(viewer)).toBe(role);
      await walkAllowedRoutes(
        page,
        viewer,
        async ({ meta, path, allowed, home }) => {
          if (allowed) await expectRendered(page, meta, path);
          else await expect(page, `${role} ${path} ⇒ ${home}`).toHaveURL((u) => u.pathname === home);
        },
        { refused: true },
      );
      await expectMenus(page, viewer, phone === true);
      await page.context().close();
    });
  }
});

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
