// The device list: every SPEC §4 filter and the §2 sort change both the list and the map; the detail is a
// bottom sheet on a 390 px screen and back goes to /devices.
import { accounts, expect, test } from './fixtures.ts';
import { createDevice, listIds, mapIds, only, sendOsmAnd, tag, type MadeDevice } from './map-helpers.ts';
import type { Page } from '@playwright/test';

async function fleet(page: Page) {
  const t = tag();
  const a = await createDevice(page.request, {
    name: `A ${t}`,
    uniqueId: `fa-${t}`,
    category: 'car',
    attributes: { 'device.state': 'in_service', 'device.gpsBrand': 'BrandX' },
  });
  const b = await createDevice(page.request, { name: `B ${t}`, uniqueId: `fb-${t}`, category: 'truck' });
  const c = await createDevice(page.request, { name: `C ${t}`, uniqueId: `fc-${t}`, category: 'truck' });
  await sendOsmAnd(page.request, { id: a.uniqueId, lat: -23.5, lon: -46.6, speed: 30, ignition: true });
  await sendOsmAnd(page.request, { id: b.uniqueId, lat: -23.6, lon: -46.7, speed: 0, ignition: false });
  return { t, a, b, c, mine: [a, b, c] };
}

/** List (in order) and map (as a set) both show exactly `expected` among this test's devices. */
async function expectShown(page: Page, mine: MadeDevice[], list: MadeDevice[], onMap: MadeDevice[]) {
  await expect
    .poll(async () => (await listIds(page)).filter((id) => mine.some((d) => d.id === id)))
    .toEqual(list.map((d) => d.id));
  await expect
    .poll(async () => only(await mapIds(page), mine))
    .toEqual(onMap.map((d) => d.id).sort((x, y) => x - y));
}

test('filters and sort change both the list and the map', async ({ page, loginAs }) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const { t, a, b, c, mine } = await fleet(page);
  await page.goto('/devices');
  await page.getByTestId('device-search').fill(t);
  await expectShown(page, mine, [a, b, c], [a, b]);
  await expect(page.getByTestId('filtering-flag')).toBeVisible(); // the text query counts as a filter
  // a device that never reported shows its identifier alone (no time, no dangling separator)
  const never = page.locator(`[data-testid=device-row][data-device-id="${c.id}"]`);
  await expect(never).toContainText(`fc-${t}`);
  expect(await never.innerText()).not.toContain('·');

  // motion toggle, then a status filter turns it off
  await page.getByTestId('count-motion').click();
  await expectShown(page, mine, [a], [a]);
  await page.getByTestId('count-offline').click();
  await expect(page.getByTestId('count-motion')).toHaveAttribute('aria-pressed', 'false');
  await expectShown(page, mine, [c], []);
  await page.getByTestId('count-online').click();
  await expectShown(page, mine, [a, b], [a, b]);
  // turning motion on resets the status filter to all
  await page.getByTestId('count-motion').click();
  await expect(page.getByTestId('count-online')).toHaveAttribute('aria-pressed', 'false');
  await page.getByTestId('count-motion').click();
  await page.getByTestId('count-all').click();
  await expectShown(page, mine, [a, b, c], [a, b]);

  await page.getByTestId('filter-button').click();
  await page.getByTestId('filter-combined').selectOption('stopped');
  await expectShown(page, mine, [b], [b]);
  await page.getByTestId('filter-combined').selectOption('moving');
  await expectShown(page, mine, [a], [a]);
  await page.getByTestId('filter-combined').selectOption('all');

  await page.getByTestId('filter-device-state').selectOption('in_service');
  await expectShown(page, mine, [a], [a]);
  await page.getByTestId('filter-device-state').selectOption('all');

  await page.getByTestId('filter-adv-ignition').selectOption('yes');
  await expectShown(page, mine, [a], [a]);
  await page.getByTestId('filter-adv-ignition').selectOption('no');
  await expectShown(page, mine, [b, c], [b]);
  // one per type, types combine
  await page.getByTestId('filter-adv-gps_brand').selectOption('BrandX');
  await expectShown(page, mine, [], []);
  await page.getByTestId('filter-adv-ignition').selectOption('');
  await expectShown(page, mine, [a], [a]);
  await page.getByTestId('filter-adv-gps_brand').selectOption('');

  await page.getByTestId('filter-hide-truck').check();
  await expectShown(page, mine, [a], [a]);
  await page.getByTestId('filter-hide-truck').uncheck();

  await page.getByTestId('filter-only-one').selectOption(String(b.id));
  await expectShown(page, mine, [b], [b]);
  await page.getByTestId('filter-reset').click();
  await expectShown(page, mine, [a, b, c], [a, b]);
  await page.keyboard.press('Escape');

  // sort: same key toggles the direction, a new key starts ascending (never-updated first)
  await page.getByTestId('sort-button').click();
  await page.getByTestId('sort-name').click();
  await expectShown(page, mine, [c, b, a], [a, b]);
  await page.getByTestId('sort-lastUpdate').click();
  await expectShown(page, mine, [c, a, b], [a, b]);
  await page.getByTestId('sort-lastUpdate').click();
  await expectShown(page, mine, [b, a, c], [a, b]);
  await page.getByTestId('sort-motion').click();
  await expectShown(page, mine, [a, b, c], [a, b]);
  await page.keyboard.press('Escape');

  // clearing the query clears the filtering flag
  await page.getByTestId('device-search').fill('');
  await expect(page.getByTestId('filtering-flag')).toHaveCount(0);
});

test('the device detail is a bottom sheet on a 390 px screen and back goes to /devices', async ({
  page,
  loginAs,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(accounts.admin.email, accounts.admin.password);
  const { a } = await fleet(page);
  await page.goto(`/devices/${a.id}`);
  await expect(page.getByTestId('detail-name')).toHaveText(a.name);
  // 30 kn in pt-BR with no unit chosen (issue #29)
  await expect(page.getByTestId('detail-speed')).toContainText('56 km/h');
  await expect(page.getByTestId('indicator-sat')).toBeVisible();
  const box = await page.getByTestId('panel').boundingBox();
  expect(box).toBeTruthy();
  expect(box!.width).toBeGreaterThan(380);
  expect(box!.y).toBeGreaterThan(844 * 0.3); // a sheet over the lower part of the map
  await page.getByTestId('panel-back').click();
  await expect(page).toHaveURL(/\/devices$/);
});

test('the filter panel fits a short window and scrolls to its last control', async ({ page, loginAs }) => {
  // a laptop window with the browser's bars, or a phone held sideways: the panel is taller than what is left
  await page.setViewportSize({ width: 1024, height: 460 });
  await loginAs(accounts.admin.email, accounts.admin.password);
  await page.goto('/devices');
  await page.getByTestId('filter-button').click();
  const panel = page.locator('.mantine-Popover-dropdown');
  await expect(panel).toBeVisible();
  const box = await panel.boundingBox();
  expect(box).toBeTruthy();
  expect(box!.y + box!.height).toBeLessThanOrEqual(460);
  const reset = page.getByTestId('filter-reset');
  await reset.scrollIntoViewIfNeeded();
  await expect(reset).toBeInViewport();
  await reset.click();
});
