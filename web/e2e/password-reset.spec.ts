// Password reset as a person does it (issue #10): ask for a link on the login screen, receive the mail (a local
// SMTP server; the server's real mail client sends it), open the link, set a new password, sign in with it.
// The link is built from PUBLIC_URL (here its default, http://localhost:PORT) and the app's /login/recover/{token}.
import { test, expect, startIsolatedServer } from './fixtures.ts';
import { startFakeSmtp } from './fake-smtp.ts';

test('a mailed reset link opens the recover screen and the new password signs in', async ({ page }) => {
  test.setTimeout(150_000);
  const smtp = await startFakeSmtp();
  const server = await startIsolatedServer({
    SIM_DEVICES: '0',
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'rastro@example.com',
  });
  try {
    const admin = `Basic ${Buffer.from('admin:admin').toString('base64')}`;
    const created = await page.request.post(`${server.url}/api/users`, {
      headers: { authorization: admin },
      data: { name: 'Reset Person', email: 'reset.person@example.com', password: 'old-secret' },
    });
    expect(created.ok()).toBe(true);

    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Esqueci minha senha' }).click();
    await page.getByTestId('login-email').fill('reset.person@example.com');
    await page.getByTestId('login-submit').click();
    await expect(page.getByTestId('login-info')).toBeVisible();

    const mail = await smtp.waitFor('reset.person@example.com');
    const link = /(https?:\/\/\S+\/login\/recover\/[A-Za-z0-9_%-]+)/.exec(mail.body)?.[1];
    expect(link, mail.body).toBeTruthy();
    expect(link!.startsWith(`http://localhost:${server.port}/login/recover/`)).toBe(true);

    await page.goto(link!);
    await page.getByLabel('Nova senha', { exact: true }).fill('brand-new-pass');
    await page.getByLabel('Confirme a senha').fill('brand-new-pass');
    await page.getByRole('button', { name: 'Salvar nova senha' }).click();
    await expect(page.getByTestId('recover-done')).toBeVisible();

    // the old password no longer works; the new one signs in through the login screen
    const old = await page.request.post(`${server.url}/api/session`, {
      form: { email: 'reset.person@example.com', password: 'old-secret' },
    });
    expect(old.status()).toBe(401);
    await page.goto(`${server.url}/login`);
    await page.getByTestId('login-email').fill('reset.person@example.com');
    await page.getByTestId('login-password').fill('brand-new-pass');
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(/\/home/, { timeout: 60_000 });

    // the link is single-use
    const again = await page.request.post(`${server.url}/api/password/update`, {
      form: { token: decodeURIComponent(link!.split('/login/recover/')[1]), password: 'third-pass' },
    });
    expect(again.status()).toBe(400);
  } finally {
    await server.stop();
    await smtp.close();
  }
});
