// The live map: seeded and new devices drawn from one GeoJSON source, marker click opens the detail, OsmAnd
// positions glide the marker and update the list, and the app reconnects after a server restart.
import { accounts, expect, startIsolatedServer, removeDataDir, test } from './fixtures.ts';
import { createDevice, drawnAt, listIds, mapIds, sendOsmAnd, tag } from './map-helpers.ts';

const near = (a: [number, number] | null, lon: number, lat: number) =>
  !!a && Math.abs(a[0] - lon) < 1e-6 && Math.abs(a[1] - lat) < 1e-6;

test('seeded devices appear on the map and in the list; a marker click opens the detail', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Map ${t}`, uniqueId: `map-${t}`, category: 'truck' });
  await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.55, lon: -46.63, speed: 0 });

  await page.goto('/devices');
  await expect.poll(() => mapIds(page)).toContain(dev.id);
  // every device with a position is drawn, seeded ones included
  const seeded = await page.request.get('/api/positions');
  const withPosition = ((await seeded.json()) as Array<{ deviceId: number }>).length;
  await expect.poll(async () => (await mapIds(page)).length).toBeGreaterThanOrEqual(withPosition);
  const all = Number(await page.getByTestId('count-all-value').textContent());
  expect(all).toBeGreaterThanOrEqual(1);

  await page.getByTestId('device-search').fill(t);
  await expect.poll(() => listIds(page)).toEqual([dev.id]);

  // click the marker itself
  await page.evaluate(
    (id) => window.__rastroMap?.map.jumpTo({ center: window.__rastroMap.positionOf(id)!, zoom: 15 }),
    dev.id,
  );
  await page.waitForTimeout(300);
  const pt = await page.evaluate((id) => window.__rastroMap?.screenPointOf(id), dev.id);
  expect(pt).toBeTruthy();
  await page.mouse.click(pt!.x, pt!.y);
  await expect(page).toHaveURL(new RegExp(`/devices/${dev.id}$`));
  await expect(page.getByTestId('detail-name')).toHaveText(dev.name);
  await expect(page.getByTestId('detail-status')).toBeVisible();
  // the action buttons are shown (the ACTIONS feature wires them)
  for (const a of ['block', 'unlock', 'anchor', 'commands', 'share', 'history', 'edit'])
    await expect(page.getByTestId(`action-${a}`)).toBeVisible();
});

test('an OsmAnd position moves the marker and updates the list', async ({ page, loginAs }) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const t = tag();
  const dev = await createDevice(page.request, { name: `Move ${t}`, uniqueId: `move-${t}` });
  await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.5, lon: -46.6, speed: 0 });
  await page.goto('/devices');
  await page.getByTestId('device-search').fill(t);
  await expect.poll(() => drawnAt(page, dev.id)).toEqual([-46.6, -23.5]);
  const row = page.locator(`[data-testid=device-row][data-device-id="${dev.id}"]`);
  // pt-BR with no unit chosen reads km/h (issue #29); OsmAnd speeds here are knots
  await expect(row).toContainText('0 km/h');

  await sendOsmAnd(page.request, { id: dev.uniqueId, lat: -23.51, lon: -46.61, speed: 20, bearing: 45 });
  await expect.poll(async () => near(await drawnAt(page, dev.id), -46.61, -23.51)).toBe(true);
  await expect(row).toContainText('37 km/h');
  await expect(page.getByTestId('count-motion-value')).not.toHaveText('0');
});

test('after a server restart the app reconnects and shows positions sent meanwhile', async ({ page }) => {
  test.setTimeout(180_000);
  const srv = await startIsolatedServer({ SIM_DEVICES: '0' });
  try {
    const login = await page.request.post(`${srv.url}/api/session`, { form: accounts.admin });
    expect(login.ok()).toBe(true);
    const t = tag();
    const dev = await createDevice(page.request, { name: `Restart ${t}`, uniqueId: `rs-${t}` }, srv.url);
    await sendOsmAnd(page.request, { id: dev.uniqueId, lat: 10, lon: 20 }, srv.url);
    await page.goto(`${srv.url}/devices`);
    await expect.poll(() => drawnAt(page, dev.id), { timeout: 30_000 }).toEqual([20, 10]);

    await srv.stop();
    await srv.restart();
    // sent while the app is still disconnected (it retries every 5 s)
    await sendOsmAnd(page.request, { id: dev.uniqueId, lat: 10.5, lon: 20.5, speed: 12 }, srv.url);
    await expect
      .poll(async () => near(await drawnAt(page, dev.id), 20.5, 10.5), { timeout: 45_000 })
      .toBe(true);
    await expect(page.locator(`[data-testid=device-row][data-device-id="${dev.id}"]`)).toContainText(
      '22 km/h',
    );
  } finally {
    await srv.stop();
    removeDataDir(srv.dataDir);
  }
});

test('tests run on the offline style and map preferences are persisted', async ({ page, loginAs }) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  await page.goto('/home');
  await expect.poll(() => page.evaluate(() => window.__rastroMap?.styleId())).toBe('offline');
  await page.getByTestId('map-pref-button').click();
  await page.getByTestId('map-pref-clustered').click();
  await expect
    .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('mapPref') ?? '{}').clustered))
    .toBe(false);
});
