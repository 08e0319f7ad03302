// The server enforces the advanced permission bits (docs/permissions.md): a sub-user's page still offers engine block
// (its bits were all on when it loaded); the administrator then turns devices.lock off; blocking is refused by the
// server and the page shows the server's refusal, translated into the page's language.
import type { APIRequestContext, Page } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';

// SPEC §6 bits, left to right: devices.lock is bit 9, the second bit of the third hex digit (1111 → 1011 = b).
const ALL_PERMISSIONS = 'f'.repeat(32);
const ALL_BUT_DEVICES_LOCK = `ffb${'f'.repeat(29)}`;

type Json = Record<string, unknown> & { id: number; attributes?: Record<string, unknown> };

async function adminContext(request: APIRequestContext): Promise<APIRequestContext> {
  const res = await request.post('/api/session', { form: accounts.admin });
  expect(res.ok()).toBe(true);
  return request;
}

async function putServerAttr(admin: APIRequestContext, key: string, value: unknown): Promise<void> {
  const server = (await (await admin.get('/api/server')).json()) as Json;
  const attributes = { ...server.attributes };
  if (value === undefined) delete attributes[key];
  else attributes[key] = value;
  expect((await admin.put('/api/server', { data: { ...server, attributes } })).ok()).toBe(true);
}

async function putUserAttr(
  admin: APIRequestContext,
  userId: number,
  key: string,
  value: unknown,
): Promise<void> {
  const user = (await (await admin.get(`/api/users/${userId}`)).json()) as Json;
  const attributes = { ...user.attributes };
  if (value === undefined) delete attributes[key];
  else attributes[key] = value;
  const res = await admin.put(`/api/users/${userId}`, { data: { ...user, attributes } });
  expect(res.ok(), await res.text()).toBe(true);
}

/** Drags the slide handle to the end of its track and releases. */
async function slideToEnd(page: Page): Promise<void> {
  const h = (await page.getByTestId('action-slide-handle').boundingBox())!;
  const t = (await page.getByTestId('action-slide-track').boundingBox())!;
  const y = h.y + h.height / 2;
  await page.mouse.move(h.x + h.width / 2, y);
  await page.mouse.down();
  await page.mouse.move(t.x + t.width + 40, y, { steps: 12 });
  await page.mouse.up();
}

test('a bit turned off while the page is open: engine block is refused by the server, with its message in Spanish', async ({
  page,
  request,
  loginAs,
}) => {
  const admin = await adminContext(request);
  const PERMS = 'rastro.advancedPerms';
  const sub = await loginAs(accounts.sub1.email, accounts.sub1.password);
  try {
    await putServerAttr(admin, 'rastro.enableAdvancedPerms', true);
    await putUserAttr(admin, sub.id, PERMS, ALL_PERMISSIONS);
    // sign in again so the page starts with every bit on
    await loginAs(accounts.sub1.email, accounts.sub1.password);
    const devices = (await (await page.request.get('/api/devices')).json()) as Json[];
    expect(devices.length).toBeGreaterThan(0);
    const device = devices[0];

    await page.goto(`/devices/${device.id}?locale=es`);
    const block = page.getByTestId('action-block');
    await expect(block).toBeVisible();

    // the administrator takes devices.lock away while the page is open
    await putUserAttr(admin, sub.id, PERMS, ALL_BUT_DEVICES_LOCK);

    const refused = page.waitForResponse(
      (r) => new URL(r.url()).pathname === '/api/commands/send' && r.request().method() === 'POST',
    );
    await block.click();
    await expect(page.getByTestId('action-question')).toBeVisible();
    await slideToEnd(page);
    const res = await refused;
    expect(res.status()).toBe(403);
    expect(res.request().headers()['accept-language']).toBe('es');
    await expect(page.getByText('Permiso denegado: bloquear / activar (dispositivos)')).toBeVisible();
    await expect(page.getByText('SecurityException', { exact: false })).toHaveCount(0);
  } finally {
    await putUserAttr(admin, sub.id, PERMS, undefined);
    await putServerAttr(admin, 'rastro.enableAdvancedPerms', undefined);
  }
});
