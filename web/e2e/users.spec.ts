// The /users screen and the userEdit dialog (issue h10): create with pt-BR validation messages, list and API, edit
// readonly + device limit, link a device that the new user then sees alone, delete; My Account from the user menu;
// a read-only demo user cannot manage users; Excel import of a generated sheet with one bad row.
import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { accounts, expect, loginAs, test } from './fixtures.ts';
import { createDevice, tag } from './map-helpers.ts';

interface ApiUser {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  readonly: boolean;
  deviceLimit: number;
  password: string | null;
  attributes: Record<string, unknown>;
}

async function listUsers(page: Page): Promise<ApiUser[]> {
  const res = await page.request.get('/api/users');
  expect(res.ok()).toBe(true);
  return (await res.json()) as ApiUser[];
}

async function deleteUsersByEmail(page: Page, emails: string[]) {
  const wanted = new Set(emails.map((e) => e.toLowerCase()));
  for (const u of await listUsers(page)) {
    if (wanted.has(u.email.toLowerCase())) await page.request.delete(`/api/users/${u.id}`);
  }
}

test('an administrator creates, edits, links a device to and deletes a user', async ({ page }) => {
  const t = tag();
  const email = `h10-${t}@rastro.test`;
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  const device = await createDevice(page.request, { name: `Usr ${t}`, uniqueId: `h10-${t}` });
  try {
    await page.goto('/users');
    await expect(page.getByTestId('users-page')).toBeVisible();
    await page.getByTestId('users-add').click();
    const dialog = page.getByRole('dialog', { name: 'Novo usuário' });
    await expect(dialog).toBeVisible();
    await page.getByTestId('user-name').fill(`Usuário ${t}`);
    await page.getByTestId('user-email').fill(`h10-${t}@`);
    await page.getByTestId('user-password').fill('segredo1');
    await page.getByTestId('user-confirm-password').fill('segredo2');
    await page.getByTestId('user-save').click();
    await expect(dialog.getByText('Endereço de e-mail inválido')).toBeVisible();
    await expect(dialog.getByText('As senhas não conferem')).toBeVisible();

    await page.getByTestId('user-email').fill(email);
    await page.getByTestId('user-confirm-password').fill('segredo1');
    await page.getByTestId('user-phone').fill('+55 11 4000-1000');
    await page.getByTestId('user-save').click();
    await expect(page.getByText('Usuário salvo')).toBeVisible();
    await expect(dialog).toHaveCount(0);

    // in the list (searchable) and in GET /api/users, password never returned
    await page.getByTestId('users-search').fill(t);
    const row = page.getByTestId('user-row').filter({ hasText: email });
    await expect(row).toHaveCount(1);
    await expect(page.getByTestId('user-row')).toHaveCount(1);
    const created = (await listUsers(page)).find((u) => u.email === email);
    expect(created).toMatchObject({ name: `Usuário ${t}`, phone: '+55 11 4000-1000', password: null });

    // edit: readonly + a device limit of 3
    await row.getByTestId('user-edit-open').click();
    await expect(page.getByTestId('user-name')).toHaveValue(`Usuário ${t}`);
    await page.getByTestId('user-tab-permissions').click();
    await page.getByTestId('user-readonly').click();
    await page.getByTestId('user-deviceLimit').fill('3');
    await page.getByTestId('user-save').click();
    // the create's toast may still be up: the newest one, and the dialog closed only after a saved answer
    await expect(page.getByText('Usuário salvo').last()).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(row.getByTestId('badge-readonly')).toBeVisible();
    const edited = (await listUsers(page)).find((u) => u.email === email);
    expect(edited).toMatchObject({ readonly: true, deviceLimit: 3, phone: '+55 11 4000-1000' });

    // link the test's device
    await row.getByTestId('user-link').click();
    const link = page.getByRole('dialog', { name: `Dispositivos de Usuário ${t}` });
    await expect(link).toBeVisible();
    await page.getByTestId('user-link-search').fill(device.name);
    const box = link.getByRole('checkbox', { name: `${device.name} (${device.uniqueId})` });
    await box.click();
    await expect(box).toBeChecked();
    await expect(page.getByTestId('user-link-count')).toHaveText('1 dispositivo vinculado');
    await page.keyboard.press('Escape');

    // the new user signs in and sees only that device
    await page.context().clearCookies();
    await loginAs(page, email, 'segredo1');
    const visible = (await (await page.request.get('/api/devices')).json()) as Array<{ id: number }>;
    expect(visible.map((d) => d.id)).toEqual([device.id]);
    await page.goto('/devices');
    await expect(page.getByTestId('device-row')).toHaveCount(1);
    await expect(page.getByTestId('device-row')).toContainText(device.name);

    // back as the administrator: delete with confirmation
    await page.context().clearCookies();
    await loginAs(page, accounts.admin.email, accounts.admin.password);
    await page.goto('/users');
    await page.getByTestId('users-search').fill(t);
    await page.getByTestId('user-row').filter({ hasText: email }).getByTestId('user-delete').click();
    await expect(page.getByTestId('user-delete-confirm')).toContainText(`Usuário ${t}`);
    await page.getByTestId('user-delete-yes').click();
    await expect(page.getByText('Usuário excluído')).toBeVisible();
    await expect(page.getByTestId('user-row').filter({ hasText: email })).toHaveCount(0);
    expect((await listUsers(page)).some((u) => u.email === email)).toBe(false);
  } finally {
    await page.context().clearCookies();
    await loginAs(page, accounts.admin.email, accounts.admin.password);
    await deleteUsersByEmail(page, [email]);
    await page.request.delete(`/api/devices/${device.id}`);
  }
});

test('My Account opens from the user menu and changes the own phone', async ({ page }) => {
  const t = tag();
  const email = `h10-own-${t}@rastro.test`;
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  const made = await page.request.post('/api/users', {
    data: { id: 0, name: `Conta ${t}`, email, password: 'segredo1', attributes: {}, userLimit: 0 },
  });
  expect(made.ok()).toBe(true);
  try {
    await page.context().clearCookies();
    await loginAs(page, email, 'segredo1');
    await page.goto('/home');
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-account').click();
    await expect(page.getByTestId('user-name')).toHaveValue(`Conta ${t}`);
    // an ordinary user's own account has no permission tab
    await expect(page.getByTestId('user-tab-permissions')).toHaveCount(0);
    await page.getByTestId('user-phone').fill('+55 21 3000-2000');
    await page.getByTestId('user-save').click();
    await expect(page.getByText('Usuário salvo')).toBeVisible();
    const me = (await (await page.request.get('/api/session')).json()) as ApiUser;
    expect(me.phone).toBe('+55 21 3000-2000');
    // the session user was updated: reopening shows the new phone without a reload
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-account').click();
    await expect(page.getByTestId('user-phone')).toHaveValue('+55 21 3000-2000');
  } finally {
    await page.context().clearCookies();
    await loginAs(page, accounts.admin.email, accounts.admin.password);
    await deleteUsersByEmail(page, [email]);
  }
});

test('a read-only demo user cannot manage users', async ({ page }) => {
  await loginAs(page, accounts.readonly.email, accounts.readonly.password);
  // the access table (issue #28): a read-only user manages no users, so a typed /users sends it home
  await page.goto('/users');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByTestId('users-add')).toHaveCount(0);
  await expect(page.getByTestId('user-menu-users')).toHaveCount(0);
});

test('Excel import previews the rows, skips the bad one and creates the valid ones', async ({ page }) => {
  const t = tag();
  const good = [`h10-imp1-${t}@rastro.test`, `h10-imp2-${t}@rastro.test`];
  const dir = resolve(import.meta.dirname, '..', '..', '.tmp', 'e2e-h10');
  mkdirSync(dir, { recursive: true });
  const file = resolve(dir, `users-${t}.xlsx`);
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Usuários');
  ws.addRow(['Nome', 'E-mail', 'Senha', 'Telefone']);
  ws.addRow([`Importado Um ${t}`, good[0], 'abcd1234', '11 5555-0001']);
  ws.addRow(['Jo', `h10-bad-${t}@`, '12', '']);
  ws.addRow([`Importado Dois ${t}`, good[1], 'abcd1234', '']);
  await wb.xlsx.writeFile(file);

  await loginAs(page, accounts.admin.email, accounts.admin.password);
  try {
    await page.goto('/users');
    await page.getByTestId('users-import').click();
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('user-import-choose').click();
    await (await chooser).setFiles(file);
    const rows = page.getByTestId('user-import-row');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(1)).toHaveAttribute('data-valid', 'false');
    await expect(rows.nth(1)).toContainText('O nome deve ter pelo menos 3 caracteres');
    await expect(rows.nth(1)).toContainText('Endereço de e-mail inválido');
    await expect(rows.nth(1)).toContainText('A senha deve ter pelo menos 4 caracteres');
    await expect(page.getByTestId('user-import-summary')).toContainText('2 válidas');
    await expect(page.getByTestId('user-import-summary')).toContainText('1 com erro');
    await page.getByTestId('user-import-run').click();
    await expect(page.getByTestId('user-import-result')).toHaveAttribute('data-outcome', 'success');
    await expect(page.getByTestId('user-import-progress')).toContainText('sucesso: 2, erros: 0');
    await page.getByTestId('user-import-close').click();
    await page.getByTestId('users-search').fill(t);
    await expect(page.getByTestId('user-row')).toHaveCount(2);
    const emails = (await listUsers(page)).map((u) => u.email);
    expect(emails).toEqual(expect.arrayContaining(good));
    expect(emails.some((e) => e.startsWith(`h10-bad-${t}`))).toBe(false);
    // an imported user can sign in with the sheet's password
    await page.context().clearCookies();
    await loginAs(page, good[0], 'abcd1234');
  } finally {
    await page.context().clearCookies();
    await loginAs(page, accounts.admin.email, accounts.admin.password);
    await deleteUsersByEmail(page, good);
  }
});
