// A refused route redirects to the role's home with no data request made for the refused screen (issue #28): the
// requests of the page are recorded while a QR driver types /devices (no device list, no socket: it lands on its
// own view; again in a new tab of the same browser) and while a read-only user types /users (the map's devices for
// its home, never the users list).
import type { Page } from '@playwright/test';
import { accounts, expect, loginAs, test, useOfflineMap } from './fixtures.ts';

/** The API calls the page makes from now on ("GET /api/devices"). */
function recordApi(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/')) seen.push(`${r.method()} ${url.pathname}`);
  });
  return seen;
}

test('a QR driver typing /devices lands on its view without the device list being asked for', async ({
  page,
}) => {
  await page.goto('/qr-driver');
  await expect(page).toHaveURL(/\/motorista\?to=%2Fqr-driver$/);
  await page.getByTestId('login-email').fill(accounts.driver.email);
  await page.getByTestId('login-password').fill(accounts.driver.password);
  await page.getByTestId('login-submit').click();
  await expect(page.getByTestId('qr-driver')).toBeVisible();

  const seen = recordApi(page);
  await page.goto('/devices');
  await expect(page).toHaveURL(/\/qr-driver$/);
  await expect(page.getByTestId('qr-driver')).toBeVisible();
  expect(seen).toContain('GET /api/session');
  expect(seen.filter((s) => s.startsWith('GET /api/devices') || s === 'GET /api/socket')).toEqual([]);

  // a new tab of the same browser: the session is a QR driver's, known from the last one
  const tab = await page.context().newPage();
  await useOfflineMap(tab);
  const inTab = recordApi(tab);
  await tab.goto('/reports/stops');
  await expect(tab).toHaveURL(/\/qr-driver$/);
  await expect(tab.getByTestId('qr-driver')).toBeVisible();
  expect(inTab.filter((s) => s.startsWith('GET /api/devices') || s.startsWith('GET /api/reports'))).toEqual(
    [],
  );
});

test('a read-only user typing /users lands on the map without the users list being asked for', async ({
  page,
}) => {
  await loginAs(page, accounts.readonly.email, accounts.readonly.password);
  const seen = recordApi(page);
  await page.goto('/users');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId('shell')).toBeVisible();
  expect(seen).toContain('GET /api/devices'); // the map of its home
  expect(seen.filter((s) => s.startsWith('GET /api/users'))).toEqual([]);
});
