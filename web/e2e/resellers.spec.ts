// Resellers (SPEC §3 "Reseller: domain, limit, can create resellers", §6; docs/resellers.md): an administrator
// makes a reseller on the users screen (a bad domain gets the translated message first); the reseller, signed in,
// sees only its own subtree, cannot give a device limit above its own, and re-brands its domain from the theme
// dialog; a visitor of that domain (here `localhost`, the same server as 127.0.0.1) sees the reseller's login page,
// a visitor of 127.0.0.1 the server's. The reseller is deleted at the end (shared server).
import { accounts, expect, loginAs, test } from './fixtures.ts';
import { tag } from './map-helpers.ts';

test.use({ actionTimeout: 20_000 });

test('an administrator makes a reseller; the reseller manages its subtree and brands its own domain', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const t = tag();
  const email = `revenda-${t}@rastro.test`;
  const title = `Revenda ${t}`;
  const port = new URL(baseURL!).port;
  await loginAs(page, accounts.admin.email, accounts.admin.password);
  let resellerId: number | undefined;
  try {
    await page.goto('/users');
    await page.getByTestId('users-add').click();
    const dialog = page.getByRole('dialog', { name: 'Novo usuário' });
    await page.getByTestId('user-name').fill(`Revenda ${t}`);
    await page.getByTestId('user-email').fill(email);
    await page.getByTestId('user-password').fill('segredo1');
    await page.getByTestId('user-confirm-password').fill('segredo1');
    await page.getByTestId('user-tab-permissions').click();
    await page.getByTestId('user-userLimit').fill('5');
    await page.getByTestId('user-deviceLimit').fill('3');
    await page.getByTestId('user-reseller-enabled').click();
    await page.getByTestId('user-reseller-domain').fill('http://localhost/x');
    await page.getByTestId('user-save').click();
    await expect(dialog.getByText('Informe um nome de domínio como frota.exemplo.com.br')).toBeVisible();
    await page.getByTestId('user-reseller-domain').fill('localhost');
    await page.getByTestId('user-save').click();
    await expect(page.getByText('Usuário salvo')).toBeVisible();
    const all = (await (await page.request.get('/api/users')).json()) as Array<{
      id: number;
      email: string;
      attributes: Record<string, unknown>;
    }>;
    const made = all.find((u) => u.email === email)!;
    resellerId = made.id;
    expect(made.attributes).toMatchObject({ 'rastro.reseller': true, 'rastro.resellerDomain': 'localhost' });

    // the reseller, signed in on its own
    const ctx = await browser.newContext({ locale: 'pt-BR' });
    try {
      const rp = await ctx.newPage();
      await rp.addInitScript(() => window.localStorage.setItem('mapStyle', 'offline'));
      await loginAs(rp, email, 'segredo1');
      // a customer with a device limit above its own (3) is refused in the form, within it is saved
      await rp.goto('/users');
      await expect(rp.getByTestId('users-page')).toBeVisible();
      await expect(rp.getByTestId('user-row')).toHaveCount(0);
      await rp.getByTestId('users-add').click();
      await rp.getByTestId('user-name').fill(`Cliente ${t}`);
      await rp.getByTestId('user-email').fill(`cliente-${t}@rastro.test`);
      await rp.getByTestId('user-password').fill('segredo1');
      await rp.getByTestId('user-confirm-password').fill('segredo1');
      await rp.getByTestId('user-tab-permissions').click();
      await expect(rp.getByTestId('user-reseller')).toHaveCount(0); // may not create resellers
      await expect(rp.getByTestId('user-userLimit')).toBeDisabled();
      await rp.getByTestId('user-deviceLimit').fill('4');
      await rp.getByTestId('user-save').click();
      await expect(rp.getByText('O limite não pode ser maior que o seu')).toBeVisible();
      await rp.getByTestId('user-deviceLimit').fill('3');
      await rp.getByTestId('user-save').click();
      await expect(rp.getByText('Usuário salvo')).toBeVisible();
      await expect(rp.getByTestId('user-row')).toHaveCount(1);
      await expect(rp.getByTestId('user-row')).toContainText(`cliente-${t}@rastro.test`);

      // its theme: the dialog says which domain it brands
      await rp.goto('/');
      await rp.getByTestId('user-menu-button').click();
      await rp.getByTestId('user-menu-theme').click();
      const theme = rp.getByTestId('theme-dialog');
      await expect(theme.getByTestId('theme-reseller-notice')).toContainText('localhost');
      await theme.getByTestId('theme-title').fill(title);
      await theme.getByTestId('theme-save').click();
      await expect(theme).toHaveCount(0);
    } finally {
      await ctx.close();
    }

    // visitors: the reseller's domain shows its title; the server's own address keeps the server's
    const guest = await browser.newContext({ locale: 'pt-BR' });
    try {
      const viaDomain = await guest.newPage();
      await viaDomain.goto(`http://localhost:${port}/login`);
      await expect(viaDomain).toHaveTitle(new RegExp(title));
      const viaServer = await guest.newPage();
      await viaServer.goto(`http://127.0.0.1:${port}/login`);
      await expect(viaServer.getByTestId('login-form')).toBeVisible();
      await expect(viaServer).not.toHaveTitle(new RegExp(title));
    } finally {
      await guest.close();
    }
  } finally {
    // the customer first, then the reseller (its domain then selects nothing)
    const all = (await (await page.request.get('/api/users')).json()) as Array<{ id: number; email: string }>;
    for (const u of all.filter((x) => x.email.endsWith(`-${t}@rastro.test`)).reverse()) {
      await page.request.delete(`/api/users/${u.id}`);
    }
  }
  expect(resellerId ?? 0).toBeGreaterThan(0);
  const after = (await (
    await page.request.get(`http://localhost:${port}/rastro/assets/custom/config.json`)
  ).json()) as {
    title: string;
  };
  expect(after.title).not.toBe(title);
});
