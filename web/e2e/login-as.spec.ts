// Log in as (SPEC §6, issue #28): an administrator opens a sub-user's account from the users list, sees the banner
// "Você está usando a conta de …" and only that user's vehicles, and goes back to its own account in one click. On
// a phone (390 px) the banner and its button are in view and leave the map's controls free.
import { accounts, expect, loginAs, test } from './fixtures.ts';

test('an administrator logs in as a sub-user and returns with one click', async ({ page }) => {
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  const sub = await loginAs(page, accounts.sub1.email, accounts.sub1.password);
  const subDevices = ((await (await page.request.get('/api/devices')).json()) as { id: number }[]).map(
    (d) => d.id,
  );
  expect(subDevices.length).toBeGreaterThan(0);
  const admin = await loginAs(page, accounts.admin.email, accounts.admin.password);
  const allDevices = (await (await page.request.get('/api/devices')).json()) as { id: number }[];
  expect(allDevices.length).toBeGreaterThan(subDevices.length);

  await page.goto('/users');
  const row = page.locator(`[data-testid="user-row"][data-user-id="${sub.id}"]`);
  await row.getByTestId('user-login-as').click();
  await page.getByTestId('user-login-as-yes').click();

  const banner = page.getByTestId('login-as-banner');
  await expect(banner).toContainText(`Você está usando a conta de ${sub.name}`);
  await page.goto('/devices');
  await expect(page.getByTestId('login-as-banner')).toBeVisible(); // on every page
  await expect(page.getByTestId('device-row')).toHaveCount(subDevices.length);
  const me = (await (await page.request.get('/api/session')).json()) as { id: number };
  expect(me.id).toBe(sub.id);

  await page.getByTestId('login-as-return').click();
  await expect(page).toHaveURL(/\/users/);
  await expect(page.getByTestId('users-page')).toBeVisible();
  await expect(page.getByTestId('login-as-banner')).toHaveCount(0);
  const back = (await (await page.request.get('/api/session')).json()) as { id: number };
  expect(back.id).toBe(admin.id);
});

test('on a phone the banner is in view and does not cover the map controls', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  const sub = await loginAs(page, accounts.sub1.email, accounts.sub1.password);
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  expect((await page.request.get(`/api/session/${sub.id}`)).ok()).toBe(true);
  await page.goto('/home');
  const banner = page.getByTestId('login-as-banner');
  await expect(banner).toBeVisible();
  await expect(page.getByTestId('login-as-return')).toBeInViewport();
  const b = (await banner.boundingBox())!;
  expect(b.width).toBeLessThanOrEqual(390);
  const map = (await page.getByTestId('map-area').boundingBox())!;
  expect(map.y).toBeGreaterThanOrEqual(b.y + b.height - 1); // the map (and its controls) start below the banner
  await page.getByTestId('login-as-return').click();
  await expect(page.getByTestId('login-as-banner')).toHaveCount(0);
});
