// /history with a long route read in pages (issue #31): 20,000 positions of a new device sent through the OsmAnd
// JSON batch (POST / on the web port). The history draws the first page at once (the next pages are held back
// here until it is seen), then the rest as it arrives, until the whole route is drawn: the same points as the
// route report, playback and the table over all of them.
import type { Page } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';

const POINTS = 20_000;
const BATCH = 4_000;
const FIRST_PAGE = 2_000;

const routeStats = (page: Page) =>
  page.evaluate(() => window.__rastroRoute?.stats() ?? { points: -1, runs: -1, pieces: 0, marks: -1 });

async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test.describe('history in pages', () => {
  test.beforeEach(async ({ loginAs }) => {
    await loginAs(accounts.admin.email, accounts.admin.password);
  });

  test('a 20,000-point route draws its first part at once, then all of it', async ({ page }) => {
    test.setTimeout(240_000);
    const uniqueId = `pages-${Date.now()}`;
    const created = await page.request.post('/api/devices', { data: { name: 'Rota longa', uniqueId } });
    expect(created.ok()).toBe(true);
    const device = (await created.json()) as { id: number };
    // yesterday from 04:00 UTC, a fix every 2 s (11 h): inside yesterday for UTC and for Brazil's zones
    const day = new Date();
    day.setUTCHours(0, 0, 0, 0);
    const t0 = day.getTime() - 86_400_000 + 4 * 3600_000;
    for (let b = 0; b < POINTS; b += BATCH) {
      const batch = Array.from({ length: BATCH }, (_, k) => {
        const i = b + k;
        return {
          id: uniqueId,
          timestamp: new Date(t0 + i * 2000).toISOString(),
          lat: (-23.55 + i * 0.00002).toFixed(6),
          lon: (-46.63 + Math.sin(i / 300) * 0.01).toFixed(6),
          speed: String(20 + 20 * Math.sin(i / 40)),
          bearing: String((i * 3) % 360),
        };
      });
      const res = await page.request.post('/', { data: batch });
      expect(res.status(), await res.text()).toBe(200);
    }
    const from = new Date(t0 - 1000).toISOString();
    const to = new Date(t0 + POINTS * 2000).toISOString();
    const report = await page.request.get(`/api/reports/route?deviceId=${device.id}&from=${from}&to=${to}`);
    const rest = (await report.json()) as Array<{ id: number }>;
    expect(rest).toHaveLength(POINTS);

    // the pages after the first wait until the test has seen the first part drawn
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const pages: string[] = [];
    await page.route('**/rastro/route?**', async (route) => {
      const url = new URL(route.request().url());
      pages.push(`${url.searchParams.get('limit')} ${url.searchParams.get('after') ?? '-'}`);
      if (url.searchParams.has('after')) await held;
      await route.continue();
    });

    await page.goto(`/history?deviceId=${device.id}`);
    // the page loads today at once: nothing today for this device
    await expect(page.getByTestId('history-error')).toBeVisible();
    await choose(page, 'history-period-select', 'Ontem');
    pages.length = 0;
    await page.getByTestId('history-load').click();

    // the first part: drawn on the map, in the summary and the table, while the rest is still coming
    await expect.poll(async () => (await routeStats(page)).points, { timeout: 60_000 }).toBe(FIRST_PAGE);
    await expect(page.getByTestId('history-summary')).toHaveAttribute('data-count', String(FIRST_PAGE));
    await expect(page.getByTestId('history-table')).toHaveAttribute('data-rows', String(FIRST_PAGE));
    await expect
      .poll(() =>
        page.evaluate(() => {
          const m = window.__rastroMap?.map;
          const src = m?.getStyle().sources['rastro-route'] as
            { data?: { features?: unknown[] } } | undefined;
          return !!m?.getLayer('rastro-route-line') && (src?.data?.features?.length ?? 0) > 0;
        }),
      )
      .toBe(true);
    await expect(page.getByTestId('history-load')).toHaveAttribute('data-loading', 'true');
    const firstMax = Number(
      await page.getByTestId('history-scrubber').getByRole('slider').getAttribute('aria-valuemax'),
    );
    expect(pages).toEqual([`${FIRST_PAGE} -`, expect.stringMatching(/^25000 \d+$/)]);

    // then all of it, appended in a source of its own
    release();
    await expect.poll(async () => (await routeStats(page)).points, { timeout: 120_000 }).toBe(POINTS);
    const stats = await routeStats(page);
    expect(stats.pieces).toBe(2);
    expect(stats.runs).toBeGreaterThan(1);
    await expect(page.getByTestId('history-summary')).toHaveAttribute('data-count', String(rest.length));
    await expect(page.getByTestId('history-table')).toHaveAttribute('data-rows', String(rest.length));
    await expect(page.getByTestId('history-load')).not.toHaveAttribute('data-loading', 'true');
    const lastMax = Number(
      await page.getByTestId('history-scrubber').getByRole('slider').getAttribute('aria-valuemax'),
    );
    expect(lastMax).toBeGreaterThan(firstMax * 5);
    const appended = await page.evaluate(() => {
      const m = window.__rastroMap?.map;
      const src = m?.getStyle().sources['rastro-route-1'] as { data?: { features?: unknown[] } } | undefined;
      return !!m?.getLayer('rastro-route-line-1') && (src?.data?.features?.length ?? 0) > 0;
    });
    expect(appended).toBe(true);
    expect(pages).toHaveLength(2); // 2,000 + 25,000 > 20,000: the second page was the last

    // playback runs over the whole route: seek near the end and play
    const time = page.getByTestId('history-time');
    await page.getByTestId('history-scrubber').getByRole('slider').focus();
    await page.keyboard.press('End');
    await expect
      .poll(async () => Number(await time.getAttribute('data-time')))
      .toBeGreaterThan(t0 + 10 * 3600_000);
  });
});
