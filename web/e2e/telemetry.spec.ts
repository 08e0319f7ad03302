// The 'graphics' dialog from the device page: charts of the simulated device's last 24 h (speed, power, …), the
// 7 d range, and the SPEC §8 telemetry errors.
import type { Page } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';

async function deviceId(page: Page, uniqueId: string): Promise<number> {
  const devices = (await (await page.request.get('/api/devices')).json()) as Array<{
    id: number;
    uniqueId: string;
  }>;
  const d = devices.find((x) => x.uniqueId === uniqueId);
  if (!d) throw new Error(`${uniqueId} missing`);
  return d.id;
}

const isHistoryQuery = (url: URL) => url.pathname === '/api/positions' && url.searchParams.has('from');

test.describe('telemetry dialog', () => {
  test.beforeEach(async ({ loginAs }) => {
    await loginAs(accounts.admin.email, accounts.admin.password);
  });

  test('charts speed and power of the last 24 h and 7 d', async ({ page }) => {
    test.setTimeout(90_000);
    const id = await deviceId(page, 'rastro-0001');
    await page.goto(`/devices/${id}`);
    const answer = page.waitForResponse((r) => isHistoryQuery(new URL(r.url())));
    await page.getByTestId('action-telemetry').click();
    const dialog = page.getByTestId('telemetry-body');
    await expect(dialog).toBeVisible();
    const res = await answer;
    const url = new URL(res.url());
    expect(url.searchParams.get('deviceId')).toBe(String(id));
    const span = Date.parse(url.searchParams.get('to')!) - Date.parse(url.searchParams.get('from')!);
    expect(span).toBe(86_400_000);
    const positions = (await res.json()) as Array<{ attributes: Record<string, unknown> }>;
    expect(positions.length).toBeGreaterThan(10);

    const chart = page.getByTestId('telemetry-chart');
    await expect(chart).toHaveAttribute('data-points', String(positions.length));
    await expect(chart.locator('canvas')).toHaveCount(1);

    await dialog.getByText('Alimentação', { exact: true }).click();
    const withPower = positions.filter((p) => typeof p.attributes.power === 'number').length;
    await expect(chart).toHaveAttribute('data-points', String(withPower));

    const week = page.waitForResponse((r) => isHistoryQuery(new URL(r.url())));
    await dialog.getByText('7 dias', { exact: true }).click();
    const w = new URL((await week).url());
    expect(Date.parse(w.searchParams.get('to')!) - Date.parse(w.searchParams.get('from')!)).toBe(
      7 * 86_400_000,
    );
    await expect(chart).toBeVisible();
  });

  test('invalid answers and empty periods show the SPEC §8 messages', async ({ page }) => {
    const id = await deviceId(page, 'rastro-0001');
    let body = '{"not":"a list"}';
    await page.route(
      (u) => isHistoryQuery(u),
      (r) => r.fulfill({ status: 200, contentType: 'application/json', body }),
    );
    await page.goto(`/devices/${id}`);
    await page.getByTestId('action-telemetry').click();
    await expect(page.getByTestId('telemetry-error')).toHaveText('Resposta inválida do servidor');
    body = '[]';
    await page.getByTestId('telemetry-body').getByText('30 dias', { exact: true }).click();
    await expect(page.getByTestId('telemetry-error')).toHaveText('Sem dados para o período');
  });
});
