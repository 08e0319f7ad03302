// User billing (SPEC §3 User "Billing", §4, §6): with billing on (server attribute rastro.enableBilling, restored at
// the end) an administrator opens a user of his own in the user dialog, the Billing tab refuses a bad CPF, saves
// valid billing values into the user's attributes, then suspends and reactivates the user from /users after a
// confirmation. The user is deleted at the end.
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

test('an administrator edits a customer’s billing in the user dialog and suspends / reactivates him on /users', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const original = (await (await page.request.get('/api/server')).json()) as ServerJson;
  const hadBilling = Object.prototype.hasOwnProperty.call(original.attributes ?? {}, 'rastro.enableBilling');
  const before = original.attributes?.['rastro.enableBilling'];
  const t = tag();
  const email = `h17-${t}@rastro.test`;
  const name = `Cliente cobrança ${t}`;
  let userId: number | null = null;
  await setBilling(page.request, true, true);
  try {
    const created = await page.request.post('/api/users', {
      data: { name, email, password: `pw-${t}`, attributes: { keep: 'me' } },
    });
    expect(created.ok(), await created.text()).toBe(true);
    userId = ((await created.json()) as { id: number }).id;

    await page.goto('/users');
    const row = page.locator(`[data-testid="user-row"][data-user-email="${email}"]`);
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('account-state')).toHaveCount(0);
    await row.getByTestId('user-edit-open').click();
    const dialog = page.getByTestId('user-edit');
    await dialog.getByTestId('user-tab-billing').click();
    await expect(dialog.getByTestId('account-state')).toHaveText('Ativa');

    // a bad CPF is refused with the pt-BR message; nothing is saved
    await dialog.getByTestId('billing-billing').click();
    await dialog.getByTestId('billing-taxId').fill('123.456.789-00');
    await dialog.getByTestId('billing-price').fill('79,90');
    await dialog.getByTestId('billing-dueDay').fill('10');
    await dialog.getByTestId('user-save').click();
    await expect(dialog.getByText('CPF ou CNPJ inválido')).toBeVisible();

    // valid values are saved in the user's attributes
    await dialog.getByTestId('billing-taxId').fill('529.982.247-25');
    await dialog.getByTestId('billing-description').fill(`Plano ${t}`);
    await dialog.getByTestId('billing-fine').fill('2');
    await dialog.getByTestId('billing-interest').fill('1');
    await dialog.getByTestId('billing-autoSuspend').click();
    await dialog.getByTestId('billing-autoSuspendDays').fill('15');
    await dialog.getByTestId('billing-trustUnlock').click();
    await dialog.getByTestId('billing-trustUnlockDays').fill('3');
    const saved = page.waitForResponse(
      (r) => r.url().endsWith(`/api/users/${userId}`) && r.request().method() === 'PUT',
    );
    await dialog.getByTestId('user-save').click();
    expect((await saved).ok()).toBe(true);
    await expect(dialog).toHaveCount(0);
    const stored = (await (await page.request.get(`/api/users/${userId}`)).json()) as {
      attributes: Record<string, unknown>;
    };
    expect(stored.attributes).toMatchObject({
      keep: 'me',
      'rastro.billing': true,
      'rastro.taxId': '52998224725',
      'rastro.billingDescription': `Plano ${t}`,
      'rastro.billingPrice': 79.9,
      'rastro.billingDueDay': 10,
      'rastro.billingFine': 2,
      'rastro.billingFineMode': 'percentage',
      'rastro.billingInterest': 1,
      'rastro.autoSuspend': true,
      'rastro.autoSuspendDays': 15,
      'rastro.trustUnlock': true,
      'rastro.trustUnlockDays': 3,
    });

    // suspend from /users after a confirmation, then reactivate
    await row.getByTestId('user-suspend').click();
    await expect(page.getByText(`Suspender a conta de ${name}?`, { exact: false })).toBeVisible();
    const suspended = page.waitForResponse((r) => r.url().endsWith(`/rastro/users/${userId}/suspend`));
    await page.getByTestId('user-suspension-yes').click();
    expect((await suspended).status()).toBe(204);
    await expect(row.getByTestId('account-state')).toHaveText('Suspensa');
    const afterSuspend = (await (await page.request.get(`/api/users/${userId}`)).json()) as {
      attributes: Record<string, unknown>;
    };
    expect(afterSuspend.attributes['rastro.suspended']).toBe(true);

    await row.getByTestId('user-reactivate').click();
    await expect(page.getByText(`Reativar a conta de ${name}?`)).toBeVisible();
    await page.getByTestId('user-suspension-yes').click();
    await expect(row.getByTestId('account-state')).toHaveCount(0);
    await expect(row.getByTestId('user-suspend')).toBeVisible();
    const afterReactivate = (await (await page.request.get(`/api/users/${userId}`)).json()) as {
      attributes: Record<string, unknown>;
    };
    expect(afterReactivate.attributes['rastro.suspended']).toBeFalsy();
    expect(afterReactivate.attributes['rastro.billingPrice']).toBe(79.9);
  } finally {
    if (userId !== null) {
      await page.request.post(`/rastro/users/${userId}/reactivate`);
      await page.request.delete(`/api/users/${userId}`);
    }
    await setBilling(page.request, before, hadBilling);
  }
});
