// The superior administrator (issue #10 B, SPEC §5/§6): signed in as another administrator (created here through
// the API), the /users screen offers no edit or delete on the first administrator and no delete on oneself, while
// other users keep both; the server refuses the same actions when called directly (403, translated).
import { accounts, expect, loginAs, test } from './fixtures.ts';
import { tag } from './map-helpers.ts';

test('another administrator cannot edit, delete or impersonate the superior administrator', async ({
  page,
}) => {
  const t = tag();
  const email = `second-admin-${t}@rastro.test`;
  const password = 'segredo1';
  const boss = await loginAs(page, accounts.admin.email, accounts.admin.password);
  const created = await page.request.post('/api/users', {
    data: { name: `Segundo admin ${t}`, email, password, administrator: true },
  });
  expect(created.ok()).toBe(true);
  const second = (await created.json()) as { id: number };
  try {
    await loginAs(page, email, password);
    await page.goto('/users');
    await expect(page.getByTestId('users-page')).toBeVisible();
    const row = (id: number) => page.locator(`[data-testid="user-row"][data-user-id="${id}"]`);
    await expect(row(boss.id)).toBeVisible();
    await expect(row(boss.id).getByTestId('user-edit-open')).toHaveCount(0);
    await expect(row(boss.id).getByTestId('user-delete')).toHaveCount(0);
    await expect(row(second.id).getByTestId('user-edit-open')).toHaveCount(1);
    await expect(row(second.id).getByTestId('user-delete')).toHaveCount(0);
    const manager = page.locator('[data-testid="user-row"]').filter({ hasText: accounts.manager.email });
    await expect(manager.getByTestId('user-edit-open')).toHaveCount(1);
    await expect(manager.getByTestId('user-delete')).toHaveCount(1);

    // The server answers the same, in the page's language.
    const impersonate = await page.request.get(`/api/session/${boss.id}`, {
      headers: { 'accept-language': 'pt-BR' },
    });
    expect(impersonate.status()).toBe(403);
    expect(await impersonate.text()).toContain('Você não pode alterar um administrador superior');
    const remove = await page.request.delete(`/api/users/${second.id}`);
    expect(remove.status()).toBe(403);
  } finally {
    await loginAs(page, accounts.admin.email, accounts.admin.password);
    await page.request.delete(`/api/users/${second.id}`);
  }
});
