// Direct message to one user (issue #11, SPEC §2 users screen dialog, §5 rules, §7 POST
// /notifications/send/{channel}?userId=): the rules shown before sending, the message sent over the web channel
// with its result listed, and the server refusing a body over the web limit even when the browser is bypassed.
import { accounts, expect, test } from './fixtures.ts';

test('a manager sends a direct message to its sub-user; the rules and the result are shown', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.manager.email, accounts.manager.password);
  await page.goto('/users');
  const row = page.getByTestId('user-row').filter({ hasText: 'Subusuário 1' });
  await row.getByTestId('user-message').click();
  const dialog = page.getByTestId('message-dialog');
  await expect(dialog.getByTestId('message-channel-web')).toBeVisible();
  // SMS and mail are administrators' channels (and not configured here): only web is offered.
  await expect(dialog.getByTestId('message-channel-sms')).toHaveCount(0);

  await dialog.getByTestId('message-body').fill('Passe na base às 17h');
  await dialog.getByTestId('message-send').click();
  await expect(dialog.getByTestId('message-problem')).toHaveText('Informe o assunto');

  await dialog.getByTestId('message-subject').fill('Aviso');
  await dialog.getByTestId('message-body').fill('x'.repeat(501));
  await expect(dialog.getByTestId('message-problem')).toHaveText(
    'A mensagem para Web pode ter no máximo 500 caracteres',
  );
  await dialog.getByTestId('message-body').fill('Passe na base às 17h');
  await expect(dialog.getByTestId('message-problem')).toHaveCount(0);
  await dialog.getByTestId('message-send').click();
  await expect(dialog.getByTestId('message-result-web')).toContainText('Web: enviada');
  await expect(dialog.getByTestId('message-result-web')).toContainText('Aviso — Passe na base às 17h');
  await expect(page.getByText('1 mensagem enviada')).toBeVisible();

  // The server applies the same limit to a call made without the dialog.
  const users = (await (await page.request.get('/api/users')).json()) as Array<{ id: number; email: string }>;
  const sub1 = users.find((u) => u.email === accounts.sub1.email)!;
  const res = await page.request.post(`/api/notifications/send/web?userId=${sub1.id}`, {
    data: { subject: 'Aviso', body: 'x'.repeat(501) },
  });
  expect(res.status()).toBe(400);
  expect(await res.text()).toContain('A mensagem para web pode ter no máximo 500 caracteres');
});

test('a sub-user without managed users is refused by the server', async ({ page, loginAs }) => {
  await loginAs(accounts.sub1.email, accounts.sub1.password);
  const res = await page.request.post('/api/notifications/send/web?userId=1', {
    data: { subject: 'Oi', body: 'Oi' },
  });
  expect(res.status()).toBe(400);
  expect(await res.text()).toContain('Manager access required');
});
