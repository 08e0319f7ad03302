// Every screen fits a 390 px phone (issue #29): the users page is a list of cards with their actions in view and a
// full-width search box (and on the desktop panel the actions and role badges are not cut); the device detail sheet
// leaves the selected vehicle in view above it; the driver and vehicle scores are not cut off; the history's
// chapter badges read in full.
import type { Locator, Page } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';
import { createDevice, sendOsmAnd, tag } from './map-helpers.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** Boxes of every visible element of the locator. */
async function boxes(loc: Locator) {
  return loc.evaluateAll((els) =>
    els
      .filter((e) => (e as HTMLElement).offsetParent !== null)
      .map((e) => {
        const r = e.getBoundingClientRect();
        return {
          left: r.left,
          right: r.right,
          top: r.top,
          bottom: r.bottom,
          id: e.getAttribute('data-testid'),
        };
      }),
  );
}

/** The texts of the labels that are cut with an ellipsis (their text wider than their box). */
async function cutLabels(loc: Locator) {
  return loc.evaluateAll((els) =>
    els
      .map((e) => e.querySelector('.mantine-Badge-label') ?? e)
      .filter((l) => l.scrollWidth > l.clientWidth + 1)
      .map((l) => l.textContent ?? ''),
  );
}

async function expectInside(loc: Locator, left: number, right: number, what: string) {
  const all = await boxes(loc);
  expect(all.length, `${what}: some shown`).toBeGreaterThan(0);
  for (const b of all) {
    expect(b.left, `${what} ${b.id} left`).toBeGreaterThanOrEqual(left - 0.5);
    expect(b.right, `${what} ${b.id} right`).toBeLessThanOrEqual(right + 0.5);
  }
}

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

test.describe('users page', () => {
  test('at 390 px the users are cards with their actions in view and a full-width search box', async ({
    page,
    loginAs,
  }) => {
    await page.setViewportSize(PHONE);
    await loginAs(accounts.admin.email, accounts.admin.password);
    await page.goto('/users');
    const rows = page.getByTestId('user-row');
    await expect(rows.first()).toBeVisible();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    const body = (await page.getByTestId('panel-body').boundingBox())!;
    // nothing in the list scrolls sideways
    const list = page.getByTestId('users-table');
    expect(await list.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
    await expectInside(rows, 0, PHONE.width, 'user card');
    // each card shows the name, the e-mail and its actions, all inside the screen
    const manager = page.locator(`[data-testid="user-row"][data-user-email="${accounts.manager.email}"]`);
    await expect(manager.first()).toContainText(accounts.manager.email);
    await expect(manager.first().getByTestId('badge-manager')).toBeVisible();
    await expectInside(rows.getByRole('button'), 0, PHONE.width, 'user action');
    await expectInside(manager.first().getByTestId('user-edit-open'), 0, PHONE.width, 'edit');
    expect(await cutLabels(page.getByTestId('users-page').locator('.mantine-Badge-root'))).toEqual([]);
    // the search box takes the panel's width, not what the buttons leave of it
    const search = (await page.getByTestId('users-search').boundingBox())!;
    expect(search.width).toBeGreaterThan(body.width * 0.8);
    // and the actions are reachable: the manager's edit dialog opens
    await manager.first().getByTestId('user-edit-open').click();
    await expect(page.getByRole('dialog')).toBeVisible();
  });

  test('on the desktop panel the row actions are not cut and the role badges read in full', async ({
    page,
    loginAs,
  }) => {
    await page.setViewportSize(DESKTOP);
    await loginAs(accounts.admin.email, accounts.admin.password);
    await page.goto('/users');
    const rows = page.getByTestId('user-row');
    await expect(rows.first()).toBeVisible();
    const body = (await page.getByTestId('panel-body').boundingBox())!;
    await expectInside(rows.getByRole('button'), body.x, body.x + body.width, 'user action');
    const badges = page.getByTestId('users-page').locator('.mantine-Badge-root');
    await expect(badges.first()).toBeVisible();
    expect(await cutLabels(badges)).toEqual([]);
  });
});

test('at 390 px the device detail sheet leaves the selected vehicle in view above it', async ({
  page,
  loginAs,
}) => {
  await page.setViewportSize(PHONE);
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Folha ${t}`, uniqueId: `fo-${t}` });
  await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.55, lon: -46.63, speed: 0 });
  const inView = () =>
    page.evaluate((id) => {
      const m = window.__rastroMap;
      const xy = m?.screenPointOf(id);
      const sheet = document.querySelector('[data-testid="panel"]')?.getBoundingClientRect();
      const canvas = m?.map.getCanvas().getBoundingClientRect();
      if (!m || !xy || !sheet || !canvas || m.map.isMoving() || m.map.getZoom() < 17) return 'moving';
      return xy.y > canvas.top && xy.y < sheet.top && xy.x > 0 && xy.x < window.innerWidth
        ? 'above the sheet'
        : `at ${Math.round(xy.y)}, the sheet's top at ${Math.round(sheet.top)}`;
    }, dev.id);

  // opened by its address
  await page.goto(`/devices/${dev.id}`);
  await expect(page.getByTestId('detail-name')).toHaveText(dev.name);
  await expect.poll(inView, { timeout: 20_000 }).toBe('above the sheet');

  // opened from the list (full screen on a phone), the sheet comes after the flight started
  await page.goto('/devices');
  await page.getByTestId('device-search').fill(dev.name);
  await page.locator(`[data-testid="device-row"][data-device-id="${dev.id}"]`).click();
  await expect(page.getByTestId('detail-name')).toHaveText(dev.name);
  await expect.poll(inView, { timeout: 20_000 }).toBe('above the sheet');
});

test('at 390 px the driver and vehicle scores are not cut off', async ({ page, loginAs }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  await loginAs(accounts.admin.email, accounts.admin.password);
  await page.goto('/dashboard');
  await page.getByTestId('tab-scores').click();
  const rows = page.getByTestId('score-row');
  await expect(rows.first()).toBeVisible();
  for (const subject of ['Motoristas', 'Veículos']) {
    await page.getByTestId('scores-subject').getByText(subject).click();
    await expect(rows.first()).toBeVisible();
    expect(await pageWidth(page)).toBeLessThanOrEqual(PHONE.width);
    await expectInside(rows, 0, PHONE.width, `${subject} row`);
    await expectInside(page.getByTestId('score-value'), 0, PHONE.width, `${subject} score`);
    await expectInside(page.getByTestId('score-open'), 0, PHONE.width, 'open');
    await expectInside(page.getByTestId('scores-excel'), 0, PHONE.width, 'excel');
    // no part of the ranking hides behind a sideways scroll
    const cut = await page.getByTestId('scores-table').evaluate((t) => {
      for (let e: Element | null = t; e; e = e.parentElement)
        if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible') return true;
      return false;
    });
    expect(cut, `${subject}: the ranking scrolls sideways`).toBe(false);
    // the ranking may still be re-rendering after the switch: open the first row until its breakdown shows
    await expect(async () => {
      const open = rows.first().getByTestId('score-open');
      if ((await open.getAttribute('aria-expanded')) !== 'true') await open.click();
      await expect(page.getByTestId('score-breakdown').first()).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 20_000 });
    await expectInside(page.getByTestId('score-breakdown'), 0, PHONE.width, 'breakdown');
  }
});

test('at 390 px the history chapter badges read in full', async ({ page, loginAs }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  await loginAs(accounts.admin.email, accounts.admin.password);
  const devices = (await (await page.request.get('/api/devices')).json()) as Array<{
    id: number;
    uniqueId: string;
  }>;
  const dev = devices.find((d) => d.uniqueId === 'rastro-0001')!;
  await page.goto(`/history?deviceId=${dev.id}`);
  await page.getByTestId('history-period-select').click();
  await page.getByRole('option', { name: 'Ontem', exact: true }).click();
  await page.getByTestId('history-load').click();
  const chapters = page.getByTestId('history-chapter');
  await expect(chapters.first()).toBeVisible({ timeout: 30_000 });
  const badges = chapters.locator('.mantine-Badge-root');
  await expect(badges.filter({ hasText: 'Parada' }).first()).toBeAttached();
  await expect(badges.filter({ hasText: 'Viagem' }).first()).toBeAttached();
  expect(await cutLabels(badges)).toEqual([]);
});
