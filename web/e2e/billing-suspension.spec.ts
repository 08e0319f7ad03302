// Account suspension (SPEC §4, §8; docs/billing.md "Accounts and suspension"): with billing on (server attribute
// rastro.enableBilling, restored at the end), a user of our own with the trust unlock allowed is suspended through
// POST /rastro/users/{id}/suspend; signing in on /login shows the suspended message, the open invoice and the
// trust-unlock button; the button unlocks the account and signs in. The user and its invoice are removed after.
import type { APIRequestContext } from '@playwright/test';
import { accounts, expect, test } from './fixtures.ts';
import { tag } from './map-helpers.ts';

interface ServerJson {
  attributes: Record<string, unknown>;
  [k: string]: unknown;
}

async function setBilling(request: APIRequestContext, on: unknown, present: boolean): Promise<void> {
  const current = (await (await request.get('/api/server')).json()) as ServerJson;
  const attributes = { ...current.attributes };
  if (present) attributes['rastro.enableBilling'] = on;
  else delete attributes['rastro.enableBilling'];
  const res = await request.put('/api/server', { data: { ...current, attributes } });
  expect(res.ok(), await res.text()).toBe(true);
}

test('a suspended user sees the suspension on /login and gets in with the one-time trust unlock', async ({
  page,
  request,
}) => {
  // The administrator works through its own request context (separate cookies from the page).
  const adminLogin = await request.post('/api/session', {
    form: { email: accounts.admin.email, password: accounts.admin.password },
  });
  expect(adminLogin.ok(), await adminLogin.text()).toBe(true);
  const original = (await (await request.get('/api/server')).json()) as ServerJson;
  const hadBilling = Object.prototype.hasOwnProperty.call(original.attributes ?? {}, 'rastro.enableBilling');
  const before = original.attributes?.['rastro.enableBilling'];

  const t = tag();
  const email = `suspenso-${t}@rastro.test`;
  const password = `pass-${t}`;
  let userId: number | null = null;
  let invoiceId: number | null = null;
  await setBilling(request, true, true);
  try {
    const created = await request.post('/api/users', {
      data: {
        name: `Cliente suspenso ${t}`,
        email,
        password,
        attributes: { 'rastro.billing': true, 'rastro.trustUnlock': true, 'rastro.trustUnlockDays': 1 },
      },
    });
    expect(created.ok(), await created.text()).toBe(true);
    userId = ((await created.json()) as { id: number }).id;
    const invoice = await request.post('/rastro/invoices', {
      data: { userId, value: 123.45, dueDate: '2099-01-10', description: `Mensalidade ${t}` },
    });
    expect(invoice.ok(), await invoice.text()).toBe(true);
    invoiceId = ((await invoice.json()) as { id: number }).id;
    const suspended = await request.post(`/rastro/users/${userId}/suspend`);
    expect(suspended.status(), await suspended.text()).toBe(204);

    await page.goto('/login');
    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill(password);
    await page.getByTestId('login-submit').click();
    const alert = page.getByTestId('login-error');
    await expect(alert).toHaveAttribute('data-code', 'ACCOUNT_IS_SUSPENDED_TRUST');
    await expect(alert).toContainText('Conta suspensa');
    await expect(page.getByTestId('login-invoice')).toHaveCount(1);
    await expect(page.getByTestId('login-invoice')).toContainText('123,45');
    await expect(page).toHaveURL(/\/login/);

    await page.getByTestId('login-trust-unlock').click();
    await expect(page).not.toHaveURL(/\/login/);
    await expect(page.getByTestId('user-menu-button')).toBeVisible();

    // The unlock is used: the server now refuses a second one.
    const again = await request.post('/rastro/billing/trust-unlock', { data: { email, password } });
    expect(again.status()).toBe(400);
    expect(await again.text()).toContain('A trust period is already running');
  } finally {
    if (invoiceId !== null) await request.post(`/rastro/invoices/${invoiceId}/cancel`);
    if (userId !== null) {
      await request.post(`/rastro/users/${userId}/reactivate`);
      await request.delete(`/api/users/${userId}`);
    }
    await setBilling(request, before, hadBilling);
  }
});
