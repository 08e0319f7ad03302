// Issue #29 on a 390 × 844 phone, in pt-BR: every route each of the seven kinds of user may open (walk-roles.ts, the
// access table's routeAllowed), once settled, keeps each visible control (button, link, input, select,
// role=button) inside the viewport horizontally, and axe-core (WCAG 2 A and AA rules) finds no serious or critical
// violation; the administrator walks again on the desktop in the dark theme, turned on with the header's switch.
// Then the slide-to-confirm is completed with the keyboard alone and announces where its handle is and that it
// confirmed.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { homeOf, viewerRole, type PermissionContext } from '../../packages/domain/src/index.ts';
import { accounts, expect, test } from './fixtures.ts';
import { settle } from './texts-walk-checks.ts';
import {
  DESKTOP,
  PHONE,
  ROLES,
  expectRendered,
  json,
  openPage,
  prepareRoles,
  restoreRoles,
  viewerOf,
  walkAllowedRoutes,
  type Json,
} from './walk-roles.ts';

/** Visible controls whose box leaves the viewport on the left or the right. */
async function controlsOutside(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    for (const el of document.querySelectorAll('button, a[href], input, select, textarea, [role=button]')) {
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      if ((el as HTMLInputElement).type === 'hidden') continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      if (box.left >= -1 && box.right <= width + 1) continue;
      const name =
        el.getAttribute('aria-label') ??
        el.getAttribute('data-testid') ??
        el.textContent?.trim().slice(0, 40);
      out.push(
        `${el.tagName.toLowerCase()} "${name}" at ${Math.round(box.left)}–${Math.round(box.right)} px`,
      );
    }
    return out;
  });
}

/** axe-core's serious and critical WCAG 2 A/AA violations, one line per rule with a few of its elements. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 4)
          .map((n) => {
            const data = n.any[0]?.data as { fgColor?: string; bgColor?: string } | undefined;
            return `${n.target.join(' ')}${data?.fgColor ? ` ${data.fgColor} on ${data.bgColor}` : ''}`;
          })
          .join(' | ')}`,
    );
}

/** The walk of one page: every allowed route, settled, its controls in view and axe-core clean. */
async function walkProblems(page: Page, viewer: PermissionContext): Promise<string[]> {
  const problems: string[] = [];
  await walkAllowedRoutes(page, viewer, async ({ meta, path }) => {
    await expectRendered(page, meta, path);
    await settle(page);
    for (const c of await controlsOutside(page)) problems.push(`${path} outside: ${c}`);
    for (const v of await seriousViolations(page)) problems.push(`${path} axe ${v}`);
  });
  return problems;
}

test.describe.serial('every route: controls in view, axe-core clean (issue #29)', () => {
  test.beforeAll(prepareRoles);
  test.afterAll(restoreRoles);

  for (const { role, signIn } of ROLES) {
    test(`${role} (390 px): no control outside the viewport, no serious axe violation`, async ({
      browser,
    }) => {
      test.setTimeout(240_000);
      const page = await openPage(browser, PHONE);
      await signIn(page);
      const viewer = await viewerOf(page);
      expect(viewerRole(viewer)).toBe(role);
      expect(await walkProblems(page, viewer)).toEqual([]);
      await page.context().close();
    });
  }

  test('administrator in the dark theme (the header switch): no serious axe violation', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const page = await openPage(browser, DESKTOP);
    await ROLES.find((r) => r.role === 'administrator')!.signIn(page);
    const viewer = await viewerOf(page);
    await page.goto(homeOf(viewer));
    await page.getByTestId('color-scheme-toggle').click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(await walkProblems(page, viewer)).toEqual([]);
    // the choice is kept: a full load stays dark
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await page.context().close();
  });
});

test('the slide-to-confirm completes with the keyboard alone and announces its state', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  // a demo vehicle the simulator drives (online, so the command goes out at once)
  let online: Json | undefined;
  await expect
    .poll(async () => {
      const devices = await json<Json[]>(await page.request.get('/api/devices'));
      online = devices.find((d) => /^rastro-\d{4}$/.test(String(d.uniqueId)) && d.status === 'online');
      return online !== undefined;
    })
    .toBe(true);
  await page.goto(`/devices/${online!.id}`);
  // opened with the keyboard as well
  await page.getByTestId('action-unlock').focus();
  await page.keyboard.press('Enter');
  const handle = page.getByRole('slider');
  // reached with Tab from the dialog, not by a click
  for (let i = 0; i < 12 && !(await handle.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(handle).toBeFocused();
  await expect(handle).toHaveAccessibleName(/desbloquear/i);
  await expect(handle).toHaveAccessibleDescription(/End leva ao fim/);
  await expect(handle).toHaveAttribute('aria-valuetext', '0% do caminho');
  await page.keyboard.press('ArrowRight');
  await expect(handle).toHaveAttribute('aria-valuetext', '20% do caminho');
  await page.keyboard.press('End');
  await expect(handle).toHaveAttribute('aria-valuetext', 'Confirmado');
  await expect(page.getByRole('status').filter({ hasText: 'Confirmado' })).toBeAttached();
  await expect(page.getByText('Comando de desbloqueio enviado')).toBeVisible();
});
