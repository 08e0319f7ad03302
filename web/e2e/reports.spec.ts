// Reports: each kind shows the rows of the REST answer to the same query (SPEC §7 query string), with sane
// numbers from the simulator's backfill; paging of 25; a trip row draws its positions on the map; the Excel file
// downloaded holds the rows shown.
import ExcelJS from 'exceljs';
import type { Page } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';

interface Dev {
  id: number;
  name: string;
  uniqueId: string;
}

async function device(page: Page, uniqueId: string): Promise<Dev> {
  const devices = (await (await page.request.get('/api/devices')).json()) as Dev[];
  const d = devices.find((x) => x.uniqueId === uniqueId);
  if (!d) throw new Error(`${uniqueId} missing`);
  return d;
}

async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Opens a report, picks devices and a period, runs it; returns the REST answer the page got. */
async function runReport(page: Page, kind: string, api: string, devices: Dev[], period: string) {
  await page.goto(`/reports/${kind}`);
  await expect(page.getByTestId(`report-view-${kind}`)).toBeVisible();
  for (const d of devices) {
    await page.getByTestId('report-devices').click();
    await page.getByRole('option', { name: d.name, exact: true }).click();
  }
  await page.keyboard.press('Escape');
  await choose(page, 'report-period-select', period);
  const answer = page.waitForResponse((r) => r.url().includes(`/api/reports/${api}?`));
  await page.getByTestId('report-run').click();
  const res = await answer;
  const url = new URL(res.url());
  return { rows: (await res.json()) as Array<Record<string, unknown>>, query: url.searchParams };
}

test.describe('reports', () => {
  test.beforeEach(async ({ loginAs }) => {
    await loginAs(accounts.admin.email, accounts.admin.password);
  });

  test('trips: the SPEC §7 query, rows as the REST answer, sane numbers, a row drawn on the map, Excel', async ({
    page,
  }, info) => {
    test.setTimeout(120_000);
    const d1 = await device(page, 'rastro-0001');
    const d2 = await device(page, 'rastro-0002');
    const { rows, query } = await runReport(page, 'travels', 'trips', [d1, d2], 'Ontem');
    expect(query.getAll('deviceId').sort()).toEqual([String(d1.id), String(d2.id)].sort());
    expect(query.getAll('type')).toEqual(['allEvents']);
    expect(query.get('daily')).toBe('false');
    expect(Number.isFinite(Date.parse(query.get('from')!))).toBe(true);
    expect(Date.parse(query.get('to')!) - Date.parse(query.get('from')!)).toBeGreaterThan(82_800_000);

    // the simulator drives every day: trips exist, each moving forward in time with a distance
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      expect(Date.parse(String(r.endTime))).toBeGreaterThan(Date.parse(String(r.startTime)));
      expect(Number(r.distance)).toBeGreaterThanOrEqual(0);
      expect(Number(r.maxSpeed)).toBeLessThan(110); // knots: no vehicle tops ~140 km/h
      expect([d1.name, d2.name]).toContain(r.deviceName);
      // maxSpeed is the highest sampled speed of the trip's positions (Traccar), not a bound on averageSpeed: a
      // trip cut at midnight while the truck waits at a light has moved (average > 0) with every sample at 0
      const track = (await (
        await page.request.get('/api/positions', {
          params: { deviceId: String(r.deviceId), from: String(r.startTime), to: String(r.endTime) },
        })
      ).json()) as Array<{ speed: number }>;
      expect(track.length).toBeGreaterThan(0);
      expect(Number(r.maxSpeed)).toBeCloseTo(Math.max(...track.map((p) => p.speed)), 5);
    }
    expect(rows.some((r) => Number(r.maxSpeed) > Number(r.averageSpeed))).toBe(true);
    expect(rows.some((r) => Number(r.distance) > 1000)).toBe(true);
    await expect(page.getByTestId('report-total')).toHaveAttribute('data-total', String(rows.length));
    const shown = Math.min(25, rows.length);
    await expect(page.getByTestId('report-row')).toHaveCount(shown);
    const first = page.getByTestId('report-row').first();
    await expect(first.locator('[data-key="device"]')).toHaveText(String(rows[0].deviceName));
    // admin's units: knots and km by default (Traccar); the distance cell is the answer's metres in km
    const km = (Number(rows[0].distance) / 1000).toFixed(2);
    await expect(first.locator('[data-key="distance"]')).toContainText(km.replace('.', ','));

    // a row opens the trip: its positions are drawn
    await first.click();
    await expect
      .poll(() => page.evaluate(() => window.__rastroRoute?.stats().points ?? 0), { timeout: 20_000 })
      .toBeGreaterThan(1);

    // Excel holds every row, same device and start text as the table
    const download = page.waitForEvent('download');
    await page.getByTestId('report-excel').click();
    const file = info.outputPath('trips.xlsx');
    await (await download).saveAs(file);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const ws = wb.worksheets[0];
    expect(ws.rowCount - 1).toBe(rows.length);
    expect(ws.getRow(2).getCell(1).value).toBe(rows[0].deviceName);
    expect(ws.getRow(2).getCell(2).value).toBe(await first.locator('[data-key="startTime"]').innerText());
    expect(ws.getRow(2).getCell(6).value).toBe(Number(km));
  });

  test('summary, stops, events and route match the REST answer', async ({ page }) => {
    test.setTimeout(180_000);
    const d1 = await device(page, 'rastro-0001');
    const cases = [
      { kind: 'resume', api: 'summary' },
      { kind: 'stops', api: 'stops' },
      { kind: 'events', api: 'events' },
      { kind: 'history', api: 'route' },
    ];
    for (const c of cases) {
      const { rows } = await runReport(page, c.kind, c.api, [d1], 'Ontem');
      expect(rows.length, c.kind).toBeGreaterThan(0);
      await expect(page.getByTestId('report-total')).toHaveAttribute('data-total', String(rows.length));
      await expect(page.getByTestId('report-row')).toHaveCount(Math.min(25, rows.length));
      await expect(page.getByTestId('report-row').first().locator('[data-key="device"]')).toHaveText(d1.name);
      if (c.kind === 'resume') {
        expect(rows).toHaveLength(1);
        expect(Number(rows[0].distance)).toBeGreaterThan(1000); // a day of city driving: over 1 km
        expect(Number(rows[0].maxSpeed)).toBeGreaterThan(0);
      }
      if (c.kind === 'stops')
        for (const r of rows)
          expect(Date.parse(String(r.endTime))).toBeGreaterThanOrEqual(Date.parse(String(r.startTime)));
      if (c.kind === 'history' && rows.length > 25) {
        // paging: page 2 starts at row 26; a page size of 50 shows 50
        await page.getByTestId('report-pages').getByRole('button', { name: '2', exact: true }).click();
        await expect(page.getByTestId('report-row').first()).toHaveAttribute('data-index', '25');
        await choose(page, 'report-page-size', '50');
        await expect(page.getByTestId('report-row')).toHaveCount(Math.min(50, rows.length));
      }
    }
  });

  test('a group query and an empty period', async ({ page }) => {
    const groups = (await (await page.request.get('/api/groups')).json()) as Array<{
      id: number;
      name: string;
    }>;
    expect(groups.length).toBeGreaterThan(0); // the demo seed has groups
    await page.goto('/reports/stops');
    await page.getByTestId('report-groups').click();
    await page.getByRole('option', { name: groups[0].name, exact: true }).click();
    await page.keyboard.press('Escape');
    await choose(page, 'report-period-select', 'Personalizado');
    // the app's date fields are typed in its language (dd/mm/aaaa hh:mm in pt-BR)
    await page.getByTestId('report-period-from').fill('01/01/2020 00:00');
    await page.getByTestId('report-period-to').fill('02/01/2020 00:00');
    await page.getByTestId('report-period-to').press('Tab');
    const answer = page.waitForResponse((r) => r.url().includes('/api/reports/stops?'));
    await page.getByTestId('report-run').click();
    const res = await answer;
    expect(new URL(res.url()).searchParams.getAll('groupId')).toEqual([String(groups[0].id)]);
    expect(await res.json()).toEqual([]);
    await expect(page.getByTestId('report-empty')).toHaveText(
      'Nenhum dado encontrado para o período selecionado',
    );
  });
});
