// /history: a simulated device's backfilled route draws on the map (same points as the REST answer), plays (the
// time display advances), the table seeks, the route exports to .xlsx (read back with exceljs), and the error
// catalogue of SPEC §8 shows for an empty period and a malformed answer; the period's chapters (trips and stops)
// list beside the map, one plays alone, events mark the timeline (issue #14).
import ExcelJS from 'exceljs';
import type { Page, Response } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';

interface Dev {
  id: number;
  name: string;
  uniqueId: string;
}

async function firstDevice(page: Page): Promise<Dev> {
  const devices = (await (await page.request.get('/api/devices')).json()) as Dev[];
  const d = devices.find((x) => x.uniqueId === 'rastro-0001');
  if (!d) throw new Error('rastro-0001 missing');
  return d;
}

async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/**
 * The route the page reads (in pages from /rastro/route, issue #31), collected from its answers until the last page
 * (shorter than its limit). Call before the click that loads it.
 */
function routeAnswer<T>(page: Page): Promise<T[]> {
  return new Promise((resolve) => {
    const items: T[] = [];
    const onResponse = async (r: Response) => {
      if (!r.url().includes('/rastro/route?')) return;
      const limit = Number(new URL(r.url()).searchParams.get('limit'));
      // the history reads light rows (format=rows: [id, fix time ms, latitude, longitude, …]): as positions
      const got = ((await r.json()) as unknown[]).map((x) =>
        Array.isArray(x)
          ? { id: x[0], fixTime: new Date(x[1] as number).toISOString(), latitude: x[2], longitude: x[3] }
          : x,
      ) as T[];
      items.push(...got);
      if (got.length < limit) {
        page.off('response', onResponse);
        resolve(items);
      }
    };
    page.on('response', onResponse);
  });
}

const routeStats = (page: Page) =>
  page.evaluate(
    () => window.__rastroRoute?.stats() ?? { points: -1, runs: -1, marks: -1, vehicleUpdates: 0 },
  );

test.describe('history', () => {
  test.beforeEach(async ({ loginAs }) => {
    await loginAs(accounts.admin.email, accounts.admin.password);
  });

  test('draws yesterday’s route of a simulated device, plays it and seeks from the table', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const dev = await firstDevice(page);
    await page.goto(`/history?deviceId=${dev.id}`);
    await expect(page.getByTestId('history-page')).toBeVisible();
    await choose(page, 'history-period-select', 'Ontem');
    const answer = routeAnswer<{ id: number; latitude: number; longitude: number }>(page);
    await page.getByTestId('history-load').click();
    const rest = await answer;
    expect(rest.length).toBeGreaterThan(100); // 24 h of a 30 s / 5 min backfill

    const summary = page.getByTestId('history-summary');
    await expect(summary).toHaveAttribute('data-count', String(rest.length));
    await expect(page.getByTestId('history-table')).toHaveAttribute('data-rows', String(rest.length));
    // the map source holds every point, coloured in runs, with start/end marks
    await expect.poll(async () => (await routeStats(page)).points).toBe(rest.length);
    const stats = await routeStats(page);
    expect(stats.runs).toBeGreaterThan(1);
    expect(stats.marks).toBeGreaterThanOrEqual(2);
    const lineSource = await page.evaluate(() => {
      const m = window.__rastroMap?.map;
      const src = m?.getStyle().sources['rastro-route'] as { data?: { features?: unknown[] } } | undefined;
      return { layer: !!m?.getLayer('rastro-route-line'), features: src?.data?.features?.length ?? 0 };
    });
    expect(lineSource.layer).toBe(true);
    expect(lineSource.features).toBe(stats.runs);

    // playback: the time display advances while playing, the highlighted row follows
    const time = page.getByTestId('history-time');
    const t0 = Number(await time.getAttribute('data-time'));
    await choose(page, 'history-speed', '16×');
    await page.getByTestId('history-play').click();
    await expect(page.getByTestId('history-play')).toHaveAttribute('data-playing', 'true');
    await expect.poll(async () => Number(await time.getAttribute('data-time'))).toBeGreaterThan(t0 + 60_000);
    await expect(page.locator('[data-testid="history-row"][data-active="true"]')).toHaveCount(1);
    await page.getByTestId('history-play').click();
    await expect(page.getByTestId('history-play')).toHaveAttribute('data-playing', 'false');
    expect((await routeStats(page)).vehicleUpdates).toBeGreaterThan(2);
    await expect(page.getByTestId('route-vehicle')).toHaveCount(1); // the vehicle marker on the map

    // a click on a row seeks there
    await page.getByTestId('history-table-scroll').evaluate((el) => (el.scrollTop = 0));
    await page.locator('[data-testid="history-row"][data-index="5"]').click();
    await expect(page.getByTestId('history-current')).toHaveAttribute('data-index', '5');
    await expect(page.locator('[data-testid="history-row"][data-index="5"]')).toHaveAttribute(
      'data-active',
      'true',
    );
  });

  test('history in chapters: the trips and stops of the reports, one chapter played alone, events on the timeline', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const dev = await firstDevice(page);
    await page.goto(`/history?deviceId=${dev.id}`);
    await choose(page, 'history-period-select', 'Ontem');
    const trips = page.waitForResponse((r) => r.url().includes('/api/reports/trips'));
    const stops = page.waitForResponse((r) => r.url().includes('/api/reports/stops'));
    const route = routeAnswer<{ fixTime: string }>(page);
    await page.getByTestId('history-load').click();
    const tripRows = (await (await trips).json()) as Array<{ startTime: string; endTime: string }>;
    const stopRows = (await (await stops).json()) as unknown[];
    const points = await route;
    expect(tripRows.length).toBeGreaterThan(0);

    // one chapter per trip and stop of the server's reports, in time order
    const chapters = page.getByTestId('history-chapter');
    await expect(chapters).toHaveCount(tripRows.length + stopRows.length);
    const starts = await chapters.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-start'))));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    await expect(chapters.filter({ hasText: 'Viagem' }).first()).toContainText('velocidade máxima');

    // choosing the first trip narrows the table to its points and plays only it
    const first = chapters.and(page.locator('[data-kind="trip"]')).first();
    const start = Number(await first.getAttribute('data-start'));
    const end = Number(await first.getAttribute('data-end'));
    const inside = points.filter(
      (p) => Date.parse(p.fixTime) >= start && Date.parse(p.fixTime) <= end,
    ).length;
    await first.click();
    await expect(first).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('history-table')).toHaveAttribute('data-rows', String(inside));
    await expect(page.getByTestId('history-play')).toHaveAttribute('data-playing', 'true');
    const time = Number(await page.getByTestId('history-time').getAttribute('data-time'));
    expect(time).toBeGreaterThanOrEqual(start);
    expect(time).toBeLessThanOrEqual(end);

    // the whole period again
    await page.getByTestId('history-chapter-all').click();
    await expect(page.getByTestId('history-table')).toHaveAttribute('data-rows', String(points.length));

    // events of the period are marks on the timeline (the demo fleet's trips start and stop: motion events)
    await expect
      .poll(() => page.getByTestId('history-scrubber').locator('.mantine-Slider-mark').count())
      .toBeGreaterThan(0);
  });

  test('the device page’s history button opens /history?deviceId and loads today', async ({ page }) => {
    const dev = await firstDevice(page);
    await page.goto(`/devices/${dev.id}`);
    const answer = routeAnswer(page);
    await page.getByTestId('action-history').click();
    await expect(page).toHaveURL(new RegExp(`/history\\?deviceId=${dev.id}$`));
    const rest = await answer;
    expect(rest.length).toBeGreaterThan(0); // the backfill and the live simulator reach now
    await expect(page.getByTestId('history-summary')).toHaveAttribute('data-count', String(rest.length));
    await expect(page.getByTestId('history-device')).toHaveValue(dev.name);
  });

  test('exports the route to .xlsx with the rows shown', async ({ page }, info) => {
    test.setTimeout(120_000);
    const dev = await firstDevice(page);
    await page.goto(`/history?deviceId=${dev.id}`);
    await choose(page, 'history-period-select', 'Ontem');
    const answer = routeAnswer<{ latitude: number; longitude: number; fixTime: string }>(page);
    await page.getByTestId('history-load').click();
    const rest = await answer;
    await expect(page.getByTestId('history-summary')).toHaveAttribute('data-count', String(rest.length));

    await page.getByTestId('history-export').click();
    const download = page.waitForEvent('download');
    await page.getByTestId('history-export-xlsx').click();
    const file = info.outputPath('route.xlsx');
    await (await download).saveAs(file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const ws = wb.worksheets[0];
    expect(ws.rowCount - 1).toBe(rest.length);
    expect(String(ws.getRow(1).getCell(1).value)).toBe('Horário');
    const sorted = [...rest].sort((a, b) => Date.parse(a.fixTime) - Date.parse(b.fixTime));
    expect(ws.getRow(2).getCell(2).value).toBe(sorted[0].latitude);
    expect(ws.getRow(2).getCell(3).value).toBe(sorted[0].longitude);
    expect(ws.getRow(2).getCell(1).value).toBe(new Date(sorted[0].fixTime).toISOString());

    // GPX as well, one trkpt per point
    await page.getByTestId('history-export').click();
    const gpxDownload = page.waitForEvent('download');
    await page.getByTestId('history-export-gpx').click();
    const gpx = await (await gpxDownload).path();
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(gpx, 'utf8').match(/<trkpt /g)?.length).toBe(rest.length);
  });

  test('an empty period and a malformed answer show the catalogue messages', async ({ page }) => {
    const dev = await firstDevice(page);
    await page.goto(`/history?deviceId=${dev.id}`);
    await choose(page, 'history-period-select', 'Personalizado');
    await page.getByTestId('history-period-from').fill('01/01/2020 00:00');
    await page.getByTestId('history-period-to').fill('02/01/2020 00:00');
    await page.getByTestId('history-period-to').press('Tab');
    await page.getByTestId('history-load').click();
    await expect(page.getByTestId('history-error')).toHaveText(
      'Nenhum dado encontrado para o período selecionado',
    );
    await expect(page.getByTestId('history-summary')).toHaveCount(0);

    await page.route('**/rastro/route**', (r) =>
      r.fulfill({ status: 200, contentType: 'application/json', body: '[{"id":1,' }),
    );
    await page.getByTestId('history-load').click();
    await expect(page.getByTestId('history-error')).toHaveText('Erro no formato da resposta do servidor');
    await page.unroute('**/rastro/route**');
    // no paged route (gateway mode): the route report, here 404 as well
    for (const path of ['**/rastro/route**', '**/api/reports/route**'])
      await page.route(path, (r) => r.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' }));
    await page.goto(`/history?deviceId=${dev.id}&locale=es`);
    await expect(page.getByTestId('history-error')).toHaveText(
      'No se encontraron datos para el período seleccionado',
    );
  });
});
