// Issue #29 on a 390 × 844 phone, in pt-BR: every route the walked roles may open (walk-roles.ts, the access
// table's routeAllowed) keeps each visible control (button, link, input, select, role=button) inside the viewport
// horizontally, and axe-core (WCAG 2 A and AA rules) finds no serious or critical violation. To keep the file
// within a few minutes the walk covers five of the seven roles: the administrator (every screen), the sub-user
// with permission bits, the read-only user, the QR driver and the shared-link guest; the manager's and the
// reseller's screens are the administrator's with less data. Then the slide-to-confirm is completed with the keyboard
// alone and announces where its handle is and that it confirmed.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { homeOf, viewerRole } from '../../packages/domain/src/index.ts';
import { ROUTES, routeAllowed } from '../src/app/routeMeta.ts';
import { accounts, expect, test } from './fixtures.ts';
import { settle } from './texts-walk-checks.ts';
import {
  PHONE,
  ROLES,
  concrete,
  expectRendered,
  json,
  openPage,
  prepareRoles,
  restoreRoles,
  viewerOf,
  type Json,
} from './walk-roles.ts';

const WALKED = new Set(['administrator', 'user', 'readonly', 'qrDriver', 'guest']);

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

test.describe.serial('every route at 390 px: controls in view, axe-core clean (issue #29)', () => {
  test.beforeAll(prepareRoles);
  test.afterAll(restoreRoles);

  for (const { role, signIn } of ROLES.filter((r) => WALKED.has(r.role))) {
    test(`${role} (390 px): no control outside the viewport, no serious axe violation`, async ({
      browser,
    }) => {
      test.setTimeout(240_000);
      const page = await openPage(browser, PHONE);
      await signIn(page);
      const viewer = await viewerOf(page);
      expect(viewerRole(viewer)).toBe(role);
      const devices = await json<Json[]>(await page.request.get('/api/devices'));
      const deviceId = devices[0]?.id ?? 1;
      const typed = role === 'qrDriver' || role === 'guest';
      await page.goto(homeOf(viewer));
      const problems: string[] = [];
      for (const meta of ROUTES.filter((r) => r.access !== 'public' && routeAllowed(r, viewer))) {
        const path = concrete(meta, deviceId);
        if (typed) await page.goto(path);
        else await page.evaluate((to) => window.history.pushState(null, '', to), path);
        await expectRendered(page, meta, path);
        await settle(page);
        for (const c of await controlsOutside(page)) problems.push(`${path} outside: ${c}`);
        for (const v of await seriousViolations(page)) problems.push(`${path} axe ${v}`);
      }
      expect(problems).toEqual([]);
      await page.context().close();
    });
  }
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
