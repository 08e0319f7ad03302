// Issue #29's language walk: every route each of the seven kinds of user may open (walk-roles.ts, the access
// table's routeAllowed), in pt-BR and in es, reading the page's visible text and every title, aria-label,
// placeholder and alt (MapLibre's controls included). It fails on ⟦, on a known attribute key shown raw, on an
// en-US catalogue text where the page's language has another, on a US date or 12-hour time and on a knots unit
// (no user or server here chose one). The device detail route opens a demo vehicle, whose positions carry many
// attributes; the report routes show their forms. Every leak of a test is listed at once.
import type { Page } from '@playwright/test';
import { homeOf, viewerRole } from '../../packages/domain/src/index.ts';
import { ROUTES, routeAllowed } from '../src/app/routeMeta.ts';
import { expect, test } from './fixtures.ts';
import { leaksOf, readSegments } from './texts-walk-checks.ts';
import {
  DESKTOP,
  ROLES,
  concrete,
  expectRendered,
  json,
  openPage,
  prepareRoles,
  restoreRoles,
  viewerOf,
  type Json,
  type WalkLocale,
} from './walk-roles.ts';

const LOCALES: WalkLocale[] = ['pt-BR', 'es'];

async function pageLeaks(page: Page, path: string, locale: WalkLocale): Promise<string[]> {
  const out = new Set<string>();
  for (const segment of await readSegments(page))
    for (const leak of leaksOf(segment, locale))
      out.add(`${path} ${leak}: ${segment.kind} "${segment.text.slice(0, 120)}" (${segment.where})`);
  return [...out];
}

test.describe.serial('texts of every route as every role, in pt-BR and es (issue #29)', () => {
  test.beforeAll(prepareRoles);
  test.afterAll(restoreRoles);

  for (const locale of LOCALES)
    for (const { role, signIn } of ROLES) {
      test(`${locale} ${role}: no ⟦, raw key, English text, US date or knots on any route`, async ({
        browser,
      }) => {
        test.setTimeout(300_000);
        const page = await openPage(browser, DESKTOP, locale);
        await signIn(page);
        const viewer = await viewerOf(page);
        expect(viewerRole(viewer)).toBe(role);
        const devices = await json<Json[]>(await page.request.get('/api/devices'));
        const deviceId = devices[0]?.id ?? 1;
        const typed = role === 'qrDriver' || role === 'guest';
        await page.goto(homeOf(viewer));
        const leaks: string[] = [];
        for (const meta of ROUTES.filter((r) => r.access !== 'public' && routeAllowed(r, viewer))) {
          const path = concrete(meta, deviceId);
          if (typed) await page.goto(path);
          else await page.evaluate((to) => window.history.pushState(null, '', to), path);
          await expectRendered(page, meta, path, locale);
          if (meta.screen === 'deviceDetail')
            await expect(page.getByTestId('detail-attributes')).toBeVisible();
          leaks.push(...(await pageLeaks(page, path, locale)));
        }
        expect(leaks).toEqual([]);
        await page.context().close();
      });
    }
});
