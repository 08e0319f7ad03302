// Issue #29's language walk: every route each of the seven kinds of user may open (walk-roles.ts, the access
// table's routeAllowed), in pt-BR and in es, read once the page is settled (no request in flight, no loader, its
// text still): the visible text and every title, aria-label, placeholder and alt (MapLibre's controls included).
// On the first route that offers them, the administrator also opens the dialogs and popovers and reads them (each
// other role its user menu, whose entries differ; their dialogs are the administrator's with less data): the user
// menu, the notification bell's hint and answer, the device list's filter (categories), the device detail's
// send-command dialog, a catalogue's "new" dialog, the saved-command type list and a report run with its results.
// It fails on ⟦, on a known attribute key or category shown raw, on another language's catalogue text, on a US or
// ISO date or 12-hour time, on knots (no user or server here chose a unit), true/false, an ungrouped big number, a
// decimal point and a plural after 1 (texts-walk-checks.ts). Every leak of a test is listed at once.
import type { Page } from '@playwright/test';
import { viewerRole } from '../../packages/domain/src/index.ts';
import type { RouteMeta } from '../src/app/routeMeta.ts';
import { expect, test } from './fixtures.ts';
import { leaksOf, readSegments, settle } from './texts-walk-checks.ts';
import type { WalkLocale } from './walk-locales.ts';
import {
  DESKTOP,
  ROLES,
  expectRendered,
  openPage,
  prepareRoles,
  restoreRoles,
  viewerOf,
  walkAllowedRoutes,
} from './walk-roles.ts';

const LOCALES: WalkLocale[] = ['pt-BR', 'es'];

/** A dialog or popover a route offers: opened once per test, on the first route where `on` holds. */
interface Opener {
  name: string;
  /** Opened by every role that has it; the others only by the administrator, who has every dialog. */
  everyRole?: boolean;
  on: (meta: RouteMeta) => boolean;
  /** Opens it; false when this viewer's page lacks its trigger. */
  open: (page: Page) => Promise<boolean>;
}

const shell = (meta: RouteMeta) => meta.screen !== 'qrDriver';

/**
 * Clicks a test id when the page shows it; with `opens`, waits until what it opens is shown: a lazy dialog may
 * appear after the walk read the page, and one left open would cover the next route's controls (CI, session 25:
 * the new-user dialog appeared after closeAll had counted nothing open, and the walk hung on /commands).
 */
async function clickIf(page: Page, testId: string, opens?: string): Promise<boolean> {
  const trigger = page.getByTestId(testId).first();
  if (!(await trigger.isVisible())) return false;
  await trigger.click();
  if (opens)
    await expect(page.locator(opens).filter({ visible: true }).first()).toBeVisible({ timeout: 15_000 });
  return true;
}

const OPENERS: Opener[] = [
  {
    name: 'user menu',
    everyRole: true,
    on: shell,
    open: async (page) => {
      if (!(await clickIf(page, 'user-menu-button'))) return false;
      await expect(page.getByTestId('user-menu')).toBeVisible();
      return true;
    },
  },
  {
    name: 'notification bell',
    on: shell,
    open: async (page) => {
      const bell = page.getByTestId('push-control');
      if (!(await bell.isVisible())) return false;
      await bell.hover();
      await expect(page.getByRole('tooltip')).toBeVisible();
      // headless Chromium refuses notifications: the bell answers with its help toast
      await bell.click();
      await expect(page.locator('.mantine-Notification-root').first()).toBeVisible();
      return true;
    },
  },
  {
    name: 'device filter',
    on: (m) => m.path === '/devices',
    open: (p) => clickIf(p, 'filter-button', '.mantine-Popover-dropdown'),
  },
  {
    name: 'send command dialog',
    on: (m) => m.screen === 'deviceDetail',
    open: (p) => clickIf(p, 'action-commands', '[role=dialog]'),
  },
  {
    name: 'new user dialog',
    on: (m) => m.path === '/users',
    open: (p) => clickIf(p, 'users-add', '[role=dialog]'),
  },
  {
    name: 'saved command types',
    on: (m) => m.path === '/commands',
    open: async (page) => {
      if (!(await clickIf(page, 'command-add', '[role=dialog]'))) return false;
      await page.getByTestId('command-type').click();
      await expect(page.getByRole('option').first()).toBeVisible();
      return true;
    },
  },
  {
    name: 'report results',
    on: (m) => m.path === '/reports/resume',
    open: async (page) => {
      if (!(await clickIf(page, 'report-run'))) return false;
      await expect(
        page
          .getByTestId('report-total')
          .or(page.getByTestId('report-empty'))
          .or(page.getByTestId('report-error')),
      ).toBeVisible();
      return true;
    },
  },
];

const OPEN = '[role=dialog], [role=menu], [role=listbox], .mantine-Popover-dropdown';

/** Closes what an opener left open (menus, popovers, nested dialogs) with Escape, down to the `before` count. */
async function closeAll(page: Page, before: number): Promise<void> {
  await page.mouse.move(0, 0);
  const open = page.locator(OPEN).filter({ visible: true });
  for (let i = 0; i < 3 && (await open.count()) > before; i++) await page.keyboard.press('Escape');
  // a popover whose focus stayed on its target closes on a click outside it
  if ((await open.count()) > before) await page.mouse.click(2, 400);
  await expect(open).toHaveCount(before);
  await settle(page);
}

test.describe.serial('texts of every route as every role, in pt-BR and es (issue #29)', () => {
  test.beforeAll(prepareRoles);
  test.afterAll(restoreRoles);

  for (const locale of LOCALES)
    for (const { role, signIn } of ROLES) {
      test(`${locale} ${role}: no ⟦, raw key, foreign text, US date or knots on any route or dialog`, async ({
        browser,
      }) => {
        test.setTimeout(300_000);
        const page = await openPage(browser, DESKTOP, locale);
        await signIn(page);
        const viewer = await viewerOf(page);
        expect(viewerRole(viewer)).toBe(role);
        const leaks: string[] = [];
        const seen = new Set<string>();
        const read = async (where: string) => {
          for (const segment of await readSegments(page))
            for (const leak of leaksOf(segment, locale)) {
              const line = `${leak}: ${segment.kind} "${segment.text.slice(0, 120)}" (${segment.where})`;
              if (!seen.has(line)) leaks.push(`${where} ${line}`);
              seen.add(line);
            }
        };
        const opened = new Set<string>();
        await walkAllowedRoutes(page, viewer, async ({ meta, path }) => {
          await expectRendered(page, meta, path, locale);
          if (meta.screen === 'deviceDetail')
            await expect(page.getByTestId('detail-attributes')).toBeVisible();
          await settle(page);
          await read(path);
          const openers = OPENERS.filter((o) => o.everyRole || role === 'administrator');
          for (const opener of openers.filter((o) => !opened.has(o.name) && o.on(meta))) {
            const before = await page.locator(OPEN).filter({ visible: true }).count();
            if (!(await opener.open(page))) continue;
            opened.add(opener.name);
            await settle(page);
            await read(`${path} [${opener.name}]`);
            await closeAll(page, before);
          }
        });
        expect(leaks).toEqual([]);
        await page.context().close();
      });
    }
});
