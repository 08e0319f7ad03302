// Billing (SPEC §2 "Billing management" and "My Invoices", §4 Invoice): an administrator turns billing on
// (server attribute rastro.enableBilling, restored at the end), creates an invoice for a demo user from the user
// menu, marks it received in cash after a confirmation; the user then sees it paid under My Invoices.
import { accounts, expect, test } from './fixtures.ts';
import { tag } from './map-helpers.ts';

interface ServerJson {
  attributes: Record<string, unknown>;
  [k: string]: unknown;
}

test('an administrator bills a user and marks the invoice received in cash; the user sees it paid', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const original = (await (await page.request.get('/api/server')).json()) as ServerJson;
  const hadBilling = Object.prototype.hasOwnProperty.call(original.attributes ?? {}, 'rastro.enableBilling');
  const before = original.attributes?.['rastro.enableBilling'];
  const setBilling = async (on: unknown, present: boolean) => {
    const current = (await (await page.request.get('/api/server')).json()) as ServerJson;
    const attributes = { ...current.attributes };
    if (present) attributes['rastro.enableBilling'] = on;
    else delete attributes['rastro.enableBilling'];
    const res = await page.request.put('/api/server', { data: { ...current, attributes } });
    expect(res.ok(), await res.text()).toBe(true);
  };
  await setBilling(true, true);
  try {
    const users = (await (await page.request.get('/api/users')).json()) as Array<{
      id: number;
      name: string;
      email: string;
    }>;
    const client = users.find((u) => u.email === accounts.sub1.email)!;
    const t = tag();
    const description = `Mensalidade ${t}`;

    await page.goto('/home');
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-billing').click();
    const dialog = page.getByRole('dialog', { name: 'Gestão de cobrança' });
    await expect(dialog).toBeVisible();
    await page.getByTestId('invoices-user').click();
    await page.getByTestId('invoices-user').fill(client.email);
    await page.getByRole('option', { name: `${client.name} (${client.email})` }).click();

    // the form refuses a zero value, then creates the invoice
    await page.getByTestId('invoice-add').click();
    await page.getByTestId('invoice-value').fill('0');
    await page.getByTestId('invoice-dueDate').fill('10/01/2030');
    await page.getByTestId('invoice-dueDate').press('Tab');
    await page.getByTestId('invoice-description').fill(description);
    await page.getByTestId('invoice-save').click();
    await expect(page.getByText('Informe um valor maior que zero, com até 2 casas decimais.')).toBeVisible();
    await page.getByTestId('invoice-value').fill('89,90');
    const created = page.waitForResponse(
      (r) => r.url().endsWith('/rastro/invoices') && r.request().method() === 'POST',
    );
    await page.getByTestId('invoice-save').click();
    const invoice = (await (await created).json()) as { id: number; status: string; value: number };
    expect(invoice).toMatchObject({ status: 'TARKAN_GENERATED', value: 89.9 });

    const row = page.getByTestId('invoice-row').filter({ hasText: description });
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId('invoice-status')).toHaveText('Gerada');
    await expect(row.locator('[data-key="value"]')).toHaveText('R$ 89,90');
    await expect(row).toContainText('10/01/2030');

    // the open filter keeps it; the paid filter hides it
    await page.getByTestId('invoices-filter').click();
    await page.getByRole('option', { name: 'Pagas', exact: true }).click();
    await expect(row).toHaveCount(0);
    await page.getByTestId('invoices-filter').click();
    await page.getByRole('option', { name: 'Todas', exact: true }).click();
    await expect(row).toHaveCount(1);

    // received in cash, after a confirmation
    await row.getByTestId('invoice-cash').click();
    await expect(page.getByRole('dialog', { name: 'Recebida em dinheiro' })).toBeVisible();
    await expect(
      page.getByText(`Marcar a fatura nº ${invoice.id} (R$ 89,90) como recebida em dinheiro?`),
    ).toBeVisible();
    await page.getByTestId('invoice-confirm-yes').click();
    await expect(row.getByTestId('invoice-status')).toHaveText('Recebida em dinheiro');
    await expect(row.getByTestId('invoice-cash')).toHaveCount(0);
    await expect(row.getByTestId('invoice-cancel')).toHaveCount(0);

    // the user sees it paid under My Invoices
    await loginAs(accounts.sub1.email, accounts.sub1.password);
    await page.goto('/home');
    await page.getByTestId('user-menu-button').click();
    await expect(page.getByTestId('user-menu-billing')).toHaveCount(0);
    await page.getByTestId('user-menu-invoices').click();
    const mine = page.getByRole('dialog', { name: 'Minhas faturas' });
    await expect(mine).toBeVisible();
    const paid = mine.getByTestId('invoice-row').filter({ hasText: description });
    await expect(paid.getByTestId('invoice-status')).toHaveText('Recebida em dinheiro');
    const today = new Date();
    const dd = String(today.getUTCDate()).padStart(2, '0');
    const mm = String(today.getUTCMonth() + 1).padStart(2, '0');
    await expect(paid.locator('[data-key="paidDate"]')).toHaveText(`${dd}/${mm}/${today.getUTCFullYear()}`);
    await expect(paid.getByTestId('invoice-cash')).toHaveCount(0);
  } finally {
    await loginAs(accounts.admin.email, accounts.admin.password);
    await setBilling(before, hadBilling);
  }
});

test('an administrator sets the invoice defaults in Integrations and sees the webhook URL; new invoices use them', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  const original = (await (await page.request.get('/api/server')).json()) as ServerJson;
  const hadBilling = Object.prototype.hasOwnProperty.call(original.attributes ?? {}, 'rastro.enableBilling');
  const before = original.attributes?.['rastro.enableBilling'];
  const saved = (await (await page.request.get('/rastro/integrations')).json()) as Array<
    Record<string, unknown>
  >;
  const invoiceBefore = saved.find((i) => i.key === 'invoice')!;
  const putServer = async (on: unknown, present: boolean) => {
    const current = (await (await page.request.get('/api/server')).json()) as ServerJson;
    const attributes = { ...current.attributes };
    if (present) attributes['rastro.enableBilling'] = on;
    else delete attributes['rastro.enableBilling'];
    expect((await page.request.put('/api/server', { data: { ...current, attributes } })).ok()).toBe(true);
  };
  await putServer(true, true);
  try {
    const t = tag();
    await page.goto('/home');
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-integrations').click();
    const dialog = page.getByRole('dialog', { name: 'Integrações' });
    await expect(dialog).toBeVisible();
    await expect(page.getByTestId('integrations-webhookUrl')).toHaveValue(/\/rastro\/billing\/webhook$/);
    await dialog.getByRole('tab', { name: 'Faturas' }).click();
    await page.getByTestId('integrations-firstDueDay').fill('15');
    await page.getByTestId('integrations-description').fill(`Plano ${t}`);
    const posted = page.waitForResponse((r) => r.url().endsWith('/rastro/integrations/invoice'));
    await page.getByTestId('integrations-save-invoice').click();
    expect((await posted).status()).toBe(200);
    await expect(page.getByText('Integração salva.')).toBeVisible();
    await page.keyboard.press('Escape');

    // the manager's new-invoice form proposes the description and a due date on the 15th
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-billing').click();
    await page.getByTestId('invoices-user').click();
    await page.getByRole('option').first().click();
    await page.getByTestId('invoice-add').click();
    await expect(page.getByTestId('invoice-description')).toHaveValue(`Plano ${t}`);
    await expect(page.getByTestId('invoice-dueDate')).toHaveValue(/^15\/\d{2}\/\d{4}$/);
  } finally {
    const res = await page.request.post('/rastro/integrations/invoice', { data: invoiceBefore });
    expect(res.ok(), await res.text()).toBe(true);
    await putServer(before, hadBilling);
  }
});
