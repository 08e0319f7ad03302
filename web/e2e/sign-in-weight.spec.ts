// The sign-in page downloads the sign-in page (issue #31): until the person starts typing, no map, shell, screens or
// form-check code, and at most 175 kB of JavaScript (gzip, level 6, as bench/web-budget.ts counts). Once a key is
// pressed the form checks are fetched, and the signed-in app's code (MapLibre first) may start. Byte counts and
// file names, not times. While the session is checked, the busy button animates nothing (no frame drawn per tick),
// and it turns busy without a transition.
import { gzipSync } from 'node:zlib';
import type { Page, Request } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';

const SIGN_IN_BUDGET_KB = 175;
/** Chunks of the signed-in app and of the form checks (web/scripts/chunkGroups.ts layers, Vite's file names). */
const APP_CHUNK =
  /\/assets\/(maplibre|shell|screens|live|map|checks|validation|messages|domainMessages)-[\w-]+\.js$/;

interface Loaded {
  url: string;
  gzip: number;
}

/**
 * Records every JavaScript file the page downloads, with its gzip size; `pending` counts requests not yet done;
 * `unread` the files whose body could not be read (a chunk still arriving when the test ends is one: its read then
 * fails, and must not fail the finished test; one unread before the count is checked fails it).
 */
function recordScripts(page: Page) {
  const scripts: Loaded[] = [];
  const unread: string[] = [];
  const pending = new Set<Request>();
  page.on('request', (r) => pending.add(r));
  page.on('requestfailed', (r) => pending.delete(r));
  page.on('requestfinished', (r) => {
    void (async () => {
      try {
        const res = await r.response();
        if (res && r.url().endsWith('.js')) {
          const body = await res.body();
          scripts.push({ url: r.url(), gzip: gzipSync(body, { level: 6 }).length });
        }
      } catch {
        unread.push(r.url());
      } finally {
        pending.delete(r);
      }
    })();
  });
  return { scripts, unread, pending };
}

/** Two idle periods of the page's main thread, then no request left open: what the page fetches on its own. */
async function settle(page: Page, pending: Set<Request>): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((r) => requestIdleCallback(() => requestIdleCallback(() => r()))),
  );
  await expect.poll(() => pending.size).toBe(0);
}

test('/login downloads only the sign-in page until typing starts, then the checks and the map', async ({
  page,
}) => {
  const { scripts, unread, pending } = recordScripts(page);
  await page.goto('/login');
  await expect(page.getByTestId('login-form')).toBeVisible();
  await settle(page, pending);
  // the language picker's texts or a late chunk could still arrive after one idle period: settle once more
  await settle(page, pending);

  expect(unread, 'JavaScript files whose size could not be read').toEqual([]);
  const before = [...scripts];
  const app = before.filter((s) => APP_CHUNK.test(s.url)).map((s) => s.url);
  expect(app, 'app or check chunks fetched before typing').toEqual([]);
  const kb = before.reduce((sum, s) => sum + s.gzip, 0) / 1024;
  expect(kb, `JavaScript before typing (${before.length} files)`).toBeLessThanOrEqual(SIGN_IN_BUDGET_KB);

  await page.getByRole('textbox', { name: /e-?mail/i }).pressSequentially('a');
  await expect.poll(() => scripts.some((s) => /\/assets\/validation-/.test(s.url))).toBe(true);
  await expect.poll(() => scripts.some((s) => /\/assets\/maplibre-/.test(s.url))).toBe(true);
});

test('while the session is checked the sign-in button is busy without an endless animation', async ({
  page,
}) => {
  // the session's answer held back: the button stays busy meanwhile
  let release = () => undefined as void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/session', async (route) => {
    if (route.request().method() === 'POST') await held;
    await route.continue();
  });
  await page.goto('/login');
  await page.getByTestId('login-email').fill(accounts.admin.email);
  await page.getByTestId('login-password').fill(accounts.admin.password);
  // every transition the button (its overlay, label and ring included) starts from here on
  await page.evaluate(() => {
    const w = window as unknown as { busyMotion: string[] };
    w.busyMotion = [];
    const submit = document.querySelector('[data-testid="login-submit"]');
    document.addEventListener('transitionrun', (e) => {
      if (e.target instanceof Node && submit?.contains(e.target))
        w.busyMotion.push(`${e.propertyName}${e.pseudoElement}`);
    });
  });
  await page.getByTestId('login-password').press('Enter');
  const button = page.getByTestId('login-submit');
  await expect(button).toHaveAttribute('aria-busy', 'true');
  await expect(button).toBeDisabled();
  await expect(button.locator('.mantine-Loader-root')).toBeVisible();
  // the busy state comes in one frame: each step of a transition is a frame of the page, and in software WebGL
  // each frame held the map's first one back (issue #31, session 44)
  const motion = await page.evaluate(
    () =>
      new Promise<string[]>((resolve) =>
        requestAnimationFrame(() =>
          requestAnimationFrame(() => resolve((window as unknown as { busyMotion: string[] }).busyMotion)),
        ),
      ),
  );
  expect(motion, 'transitions of the busy sign-in button').toEqual([]);
  // a spinning loader makes the page draw a frame (a swap in the GPU process) many times a second until the
  // signed-in page comes (issue #31)
  const endless = await page.evaluate(
    () =>
      document
        .getAnimations()
        .filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations === Infinity).length,
  );
  expect(endless, 'animations that never end on the sign-in page').toBe(0);
  release();
  await expect(page).toHaveURL(/\/home$/);
});
