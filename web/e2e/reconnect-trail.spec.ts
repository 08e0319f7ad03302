// No gap in the live trail (issue #30): a page following a device keeps every position it sent while the page was
// reconnecting. The server restarts; while it is back but the page's socket is not (held here, as a slow network
// would), the device sends five positions through OsmAnd; once the socket opens the trail has them all, in order,
// before the next live one.
import { accounts, expect, startIsolatedServer, removeDataDir, test } from './fixtures.ts';
import { createDevice, drawnAt, sendOsmAnd, tag } from './map-helpers.ts';

/** The followed device's trail as the map draws it ([lon, lat] pairs, oldest first). */
const drawnTrail = (page: import('@playwright/test').Page) =>
  page.evaluate(
    () =>
      (window.__rastroMap?.controller as unknown as { trail?: Array<[number, number]> } | undefined)?.trail ??
      [],
  );

test('after a server restart the followed device’s trail has every position sent meanwhile, in order', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const srv = await startIsolatedServer({ SIM_DEVICES: '0' });
  try {
    const login = await page.request.post(`${srv.url}/api/session`, { form: accounts.admin });
    expect(login.ok()).toBe(true);
    const t = tag();
    const dev = await createDevice(page.request, { name: `Trail ${t}`, uniqueId: `tr-${t}` }, srv.url);
    const t0 = Math.floor(Date.now() / 1000) - 600;
    const lonAt = (i: number) => Number((20 + i / 100).toFixed(2));
    const send = (i: number) =>
      sendOsmAnd(page.request, { id: dev.uniqueId, lat: 10, lon: lonAt(i), timestamp: t0 + i * 10 }, srv.url);

    // the page's socket goes through here: refused while `hold` is on (the page retries every 5 s)
    let hold = false;
    await page.routeWebSocket(/\/api\/socket/, (ws) => {
      if (hold) ws.close();
      else ws.connectToServer();
    });

    await send(0);
    await page.goto(`${srv.url}/devices/${dev.id}`);
    await expect.poll(() => drawnAt(page, dev.id), { timeout: 30_000 }).toEqual([lonAt(0), 10]);
    await page.getByTestId('action-trail').click();
    await send(1);
    await expect.poll(() => drawnTrail(page)).toEqual([0, 1].map((i) => [lonAt(i), 10]));

    hold = true;
    await srv.stop();
    await srv.restart();
    for (let i = 2; i <= 6; i++) await send(i); // sent while the page is not connected
    await page.waitForTimeout(500);
    expect((await drawnTrail(page)).length).toBe(2);
    hold = false;

    await expect
      .poll(() => drawnTrail(page), { timeout: 45_000 })
      .toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => [lonAt(i), 10]));
    await send(7); // live again, after them
    await expect.poll(() => drawnTrail(page)).toEqual([0, 1, 2, 3, 4, 5, 6, 7].map((i) => [lonAt(i), 10]));
    await expect.poll(() => drawnAt(page, dev.id)).toEqual([lonAt(7), 10]);
  } finally {
    await srv.stop();
    removeDataDir(srv.dataDir);
  }
});
