// The map draws no frame while nothing on it moves (issue #31): with its vehicles parked and the first view settled,
// MapLibre renders nothing over the next animation frames. A count of renders over a count of frames, not a time.
import { expect, loginAs, accounts, test } from './fixtures.ts';
import { createDevice, sendOsmAnd, tag } from './map-helpers.ts';

const ADMIN = { Authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` };
/** Animation frames watched once the map is idle (about two seconds at 60 frames a second). */
const QUIET_FRAMES = 120;

test('a map whose vehicles are parked renders no frame', async ({ page }) => {
  const t = tag();
  const email = `quiet-${t}@rastro.test`;
  const password = 'secret-pass';
  const made = await page.request.post('/api/users', {
    headers: ADMIN,
    data: { name: `Quiet ${t}`, email, password },
  });
  expect(made.ok()).toBe(true);
  const userId = ((await made.json()) as { id: number }).id;
  const ids: number[] = [];
  for (const [i, [lat, lon]] of [
    [-23.55, -46.63],
    [-23.6, -46.7],
  ].entries()) {
    await loginAs(page, accounts.admin.email, accounts.admin.password);
    const dev = await createDevice(page.request, { name: `Parado ${i} ${t}`, uniqueId: `quiet-${i}-${t}` });
    await sendOsmAnd(page.request, { id: `quiet-${i}-${t}`, lat, lon, speed: 0 });
    const linked = await page.request.post('/api/permissions', {
      headers: ADMIN,
      data: { userId, deviceId: dev.id },
    });
    expect(linked.status()).toBe(204);
    ids.push(dev.id);
  }

  await loginAs(page, email, password);
  await page.goto('/home');
  await expect
    .poll(() => page.evaluate((ids) => ids.every((id) => !!window.__rastroMap?.positionOf(id)), ids))
    .toBe(true);
  // the first view settled: no camera move, no symbol fade, no tile or image still loading
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const map = window.__rastroMap!.map;
        if (map.loaded() && !map.isMoving()) resolve();
        else map.once('idle', () => resolve());
      }),
  );
  const counted = await page.evaluate(
    (frames) =>
      new Promise<{ renders: number; frames: number }>((resolve) => {
        const map = window.__rastroMap!.map;
        let renders = 0;
        const count = () => renders++;
        map.on('render', count);
        let n = 0;
        const tick = () => {
          if (++n < frames) return void requestAnimationFrame(tick);
          map.off('render', count);
          resolve({ renders, frames: n });
        };
        requestAnimationFrame(tick);
      }),
    QUIET_FRAMES,
  );
  expect(counted.frames).toBe(QUIET_FRAMES);
  expect(counted.renders, 'map renders while nothing moves').toBe(0);
});
