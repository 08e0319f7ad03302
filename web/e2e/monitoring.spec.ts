// The monitoring desk (issue #32, docs/monitoring.md): an SOS sent over OsmAnd reaches the operator's open queue
// over the socket (its sound scheduled, muted in tests), is acknowledged — the customer's vehicle detail then says
// who handles it — the engine-block dialog opens from it and sends the block, a short live link is made, a note is
// added and it is resolved with an outcome; the desk's report counts it; at 390 px the queue is a list and the
// action panel a sheet. The wall screen (dark theme, large type) at 1920 × 1080 and 390 × 844: larger computed font
// size, axe-core clean, every control in view, the switch kept after a reload; the desk by keyboard alone.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';
import { createDevice, sendOsmAnd, tag, type MadeDevice } from './map-helpers.ts';

/** Drags the slide-to-confirm handle past the end of its track. */
async function slideToEnd(page: Page) {
  const h = (await page.getByTestId('action-slide-handle').boundingBox())!;
  const t = (await page.getByTestId('action-slide-track').boundingBox())!;
  const y = h.y + h.height / 2;
  await page.mouse.move(h.x + h.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(t.x + t.width + 40, y, { steps: 12 });
  await page.mouse.up();
}

/** Two reports of the device, the second pressing SOS (OsmAnd `alarm=sos`). */
async function pressSos(page: Page, dev: MadeDevice) {
  const now = Math.floor(Date.now() / 1000);
  const at = { id: dev.uniqueId, lat: -23.5505, lon: -46.6333, speed: 0, ignition: false };
  await sendOsmAnd(page.request, { ...at, timestamp: now - 60 });
  await sendOsmAnd(page.request, { ...at, lat: -23.5507, timestamp: now - 30, alarm: 'sos' });
}

/** Shows only this device's alarms (the demo fleet raises its own meanwhile). */
async function filterDevice(page: Page, name: string) {
  const input = page.getByTestId('alarm-filter-device');
  await input.fill(name);
  await page.getByRole('option', { name }).click();
  await expect(input).toHaveValue(name);
}

const sound = (page: Page) =>
  page.evaluate(() => ({
    scheduled: window.__rastroAlarmSound?.scheduled() ?? null,
    plays: window.__rastroAlarmSound?.plays() ?? null,
  }));

test('an SOS is queued live, acknowledged, the engine blocked, a link shared and it is resolved (pt-BR)', async ({
  page,
  browser,
  loginAs,
  serverSettings,
}) => {
  test.setTimeout(120_000); // a dozen steps, two browser contexts, on a shared 2-core machine
  const admin = await loginAs(accounts.admin.email, accounts.admin.password);
  await serverSettings.change({ attributes: { 'rastro.blockMaxSpeed': 1000 } });
  const t = tag();
  const dev = await createDevice(page.request, { name: `SOS ${t}`, uniqueId: `sos-${t}` });
  const email = `cliente-${t}@rastro.demo`;
  const made = await page.request.post('/api/users', {
    data: { name: `Cliente ${t}`, email, password: 'demo123', phone: '+5511987654321', attributes: {} },
  });
  expect(made.ok()).toBe(true);
  const customer = (await made.json()) as { id: number };
  expect(
    (await page.request.post('/api/permissions', { data: { userId: customer.id, deviceId: dev.id } })).ok(),
  ).toBe(true);

  // the sound is muted (the header's toggle, stored): the repeat is still scheduled, nothing plays
  await page.addInitScript(() => window.localStorage.setItem('isMuted', 'true'));
  await page.goto('/monitoring');
  await expect(page.getByTestId('monitoring-page')).toBeVisible();
  await filterDevice(page, dev.name);
  await expect(page.getByTestId('alarm-queue-empty')).toBeVisible();
  expect((await sound(page)).scheduled).toBe(false);

  await pressSos(page, dev);
  const row = page.getByTestId('alarm-row');
  await expect(row).toHaveCount(1); // over the socket, no reload
  await expect(row).toContainText('SOS / pânico');
  await expect(row).toHaveAttribute('data-state', 'open');
  await expect(row.getByTestId('alarm-age')).toHaveText(/^\d+:\d\d$/);
  await expect.poll(() => sound(page)).toEqual({ scheduled: true, plays: 0 });

  await row.click();
  const panel = page.getByTestId('alarm-panel');
  await expect(panel.getByTestId('alarm-call')).toHaveAttribute('href', 'tel:+5511987654321');
  await panel.getByTestId('alarm-ack').click();
  await expect(row).toHaveAttribute('data-state', 'acknowledged');
  await expect(panel.getByTestId('alarm-panel-state')).toContainText('Em atendimento');
  await expect.poll(async () => (await sound(page)).scheduled).toBe(false);

  // the customer sees who handles it on the vehicle's detail
  const customerContext = await browser.newContext();
  const cust = await customerContext.newPage();
  await cust.addInitScript(() => window.localStorage.setItem('mapStyle', 'offline'));
  expect((await cust.request.post('/api/session', { form: { email, password: 'demo123' } })).ok()).toBe(true);
  await cust.goto(`/devices/${dev.id}`);
  await expect(cust.getByTestId('detail-alarm-handling')).toHaveText(
    `Alarme em atendimento por ${admin.name}`,
  );

  // block the engine through the app's dialog and its interlock
  const sent = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/commands/send',
  );
  await panel.getByTestId('alarm-block').click();
  await expect(page.getByTestId('action-question')).toBeVisible();
  await slideToEnd(page);
  const request = await sent;
  expect(request.postDataJSON()).toMatchObject({ deviceId: dev.id, type: 'engineStop' });
  // an OsmAnd tracker takes it with its next report: pending until then (actions.spec.ts covers both answers)
  if ((await request.response())?.status() === 202) await page.getByTestId('action-cancel').click();
  await expect(page.getByTestId('action-question')).toBeHidden();

  // a live link for the police, valid two hours
  const shared = page.waitForRequest(
    (r) =>
      r.method() === 'POST' && ['/rastro/shares', '/api/share/device'].includes(new URL(r.url()).pathname),
  );
  await panel.getByTestId('alarm-share').click();
  await shared;
  await expect(panel.getByTestId('alarm-share-link')).toHaveValue(/\/share\/[^/]+$/);

  // a note, then resolved with an outcome
  await panel.getByTestId('alarm-note').fill('Cliente não atende; viatura a caminho');
  await panel.getByTestId('alarm-note-add').click();
  await expect(panel.getByTestId('alarm-notes')).toContainText('viatura a caminho');
  await panel.getByTestId('alarm-outcome').click();
  await page.getByRole('option', { name: 'Polícia acionada' }).click();
  await panel.getByTestId('alarm-resolve').click();
  await expect(panel.getByTestId('alarm-outcome-text')).toContainText('Polícia acionada');
  await expect(page.getByTestId('alarm-row')).toHaveCount(0); // out of the open queue

  // the customer's line goes once it is resolved
  await cust.reload();
  await expect(cust.getByTestId('detail-name')).toBeVisible();
  await expect(cust.getByTestId('detail-alarm-handling')).toHaveCount(0);
  await customerContext.close();

  // the desk's report counts it
  await page.getByTestId('monitoring-tab-report').click();
  const sosRow = page.getByTestId('alarm-report-types').locator('tr[data-type="sos"]');
  await expect(sosRow).toContainText(/SOS \/ pânico\s*[1-9]/);
  expect(Number(await page.getByTestId('alarm-report-resolved').textContent())).toBeGreaterThanOrEqual(1);
});

test('at 390 px the queue is a list and the action panel a sheet, nothing wider than the screen', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Celular ${t}`, uniqueId: `cel-${t}` });
  await page.addInitScript(() => window.localStorage.setItem('isMuted', 'true'));
  await page.setViewportSize({ width: 390, height: 844 });
  await pressSos(page, dev);
  await page.goto('/monitoring');
  await filterDevice(page, dev.name);
  await expect(page.getByTestId('alarm-row')).toHaveCount(1);
  await page.getByTestId('alarm-row').click();
  const sheet = page.getByRole('dialog', { name: 'Atendimento do alarme' });
  await expect(sheet.getByTestId('alarm-ack')).toBeVisible();
  const box = (await sheet.getByTestId('alarm-panel').boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await sheet.getByTestId('alarm-ack').click();
  await expect(sheet.getByTestId('alarm-panel-state')).toContainText('Em atendimento');
});

/** The visible controls of the desk whose box leaves the viewport (left, right or below the page's end). */
async function controlsOutside(page: Page): Promise<string[]> {
  return page.getByTestId('monitoring-page').evaluate((desk) => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    const sheet = document.querySelector('[data-testid="alarm-sheet"]');
    const roots = sheet ? [desk, sheet] : [desk];
    for (const root of roots)
      for (const el of root.querySelectorAll('button, a[href], input, textarea, [role=button]')) {
        if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0) continue;
        if (box.left >= -1 && box.right <= width + 1) continue;
        out.push(
          `${el.getAttribute('data-testid') ?? el.textContent?.trim().slice(0, 30)} ${box.left}–${box.right}`,
        );
      }
    return out;
  });
}

/** axe-core's serious and critical WCAG 2 A/AA violations of the page. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const nodes = v.nodes.slice(0, 4).map((n) => {
        const data = n.any[0]?.data as { fgColor?: string; bgColor?: string } | undefined;
        return `${n.target.join(' ')}${data?.fgColor ? ` ${data.fgColor} on ${data.bgColor}` : ''}`;
      });
      return `${v.id}: ${nodes.join(' | ')}`;
    });
}

/** The computed font size (px) of the first row's alarm type. */
const rowTextSize = (page: Page) =>
  page
    .getByTestId('alarm-row')
    .first()
    .getByTestId('alarm-row-type')
    .evaluate((el) => Number.parseFloat(getComputedStyle(el).fontSize));

for (const viewport of [
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
]) {
  test(`wall screen at ${viewport.width}×${viewport.height}: dark theme, large type kept after a reload, axe-clean, actions in view`, async ({
    page,
    loginAs,
  }) => {
    test.setTimeout(180_000); // axe-core twice and a reload on a shared 2-core machine
    await loginAs(accounts.admin.email, accounts.admin.password);
    const t = tag();
    const dev = await createDevice(page.request, { name: `Parede ${t}`, uniqueId: `wall-${t}` });
    await page.addInitScript(() => {
      window.localStorage.setItem('isMuted', 'true');
      window.localStorage.setItem('mantine-color-scheme-value', 'dark');
    });
    await page.setViewportSize(viewport);
    await pressSos(page, dev);
    await page.goto('/monitoring');
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await filterDevice(page, dev.name);
    await expect(page.getByTestId('alarm-row')).toHaveCount(1);
    const large = page.getByRole('switch', { name: 'Letras grandes' });
    if (await large.isChecked()) await large.uncheck();
    const normal = await rowTextSize(page);

    await large.check();
    await expect(page.getByTestId('monitoring-page')).toHaveAttribute('data-large', 'true');
    expect(await rowTextSize(page)).toBeGreaterThanOrEqual(normal * 1.2);
    expect(await controlsOutside(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    expect(await seriousViolations(page)).toEqual([]);

    // the alarm's actions: every one inside the screen, still clean for axe-core
    await page.getByTestId('alarm-row').click();
    await expect(page.getByTestId('alarm-ack')).toBeVisible();
    await expect(page.getByTestId('alarm-resolve')).toBeAttached();
    expect(await controlsOutside(page)).toEqual([]);
    expect(await seriousViolations(page)).toEqual([]);

    // the switch is kept: a reload opens the desk in large type
    await page.reload();
    await expect(page.getByTestId('monitoring-page')).toHaveAttribute('data-large', 'true');
    await expect(page.getByRole('switch', { name: 'Letras grandes' })).toBeChecked();
    await filterDevice(page, dev.name);
    await expect(page.getByTestId('alarm-row')).toHaveCount(1);
    await expect.poll(() => rowTextSize(page)).toBeGreaterThanOrEqual(normal * 1.2);
  });
}

test('the desk by keyboard: Tab reaches an alarm, Enter selects it, acknowledge is reached and pressed', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Teclado ${t}`, uniqueId: `kbd-${t}` });
  await page.addInitScript(() => window.localStorage.setItem('isMuted', 'true'));
  await pressSos(page, dev);
  await page.goto('/monitoring');
  await filterDevice(page, dev.name);
  const row = page.getByTestId('alarm-row');
  await expect(row).toHaveCount(1);

  // from the device filter, Tab walks forward to the alarm
  await page.getByTestId('alarm-filter-device').focus();
  for (let i = 0; i < 15 && !(await row.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await expect(row).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(row).toHaveAttribute('aria-current', 'true');
  const ack = page.getByTestId('alarm-panel').getByTestId('alarm-ack');
  await expect(ack).toBeVisible();

  // the panel's acknowledge, reached with Tab (forward or back) from the selected alarm
  for (let i = 0; i < 30 && !(await ack.evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Shift+Tab');
  await expect(ack).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(row).toHaveAttribute('data-state', 'acknowledged');
});
