// The fleet assistant (issue #11, SPEC §2 /asistente-demo): a sample question about one of the user's vehicles is
// answered from the simulated fleet with a map link, a question about offline vehicles lists them, and a question
// it cannot parse gets the plain "did not understand" answer.
import { accounts, expect, test } from './fixtures.ts';

test('asks about a vehicle, the offline ones and something it does not understand', async ({
  page,
  loginAs,
}) => {
  await loginAs(accounts.admin.email, accounts.admin.password);
  await page.goto('/asistente-demo');
  const view = page.getByTestId('assistant');
  const samples = view.getByTestId('assistant-sample');
  await expect(samples).toHaveCount(4);
  await expect(samples.first()).toHaveText(/^Onde está o caminhão .+\?$/);

  await samples.first().click();
  const answers = view.getByTestId('assistant-answer-text');
  await expect(answers.first()).toContainText(/ está em -?\d+\.\d{5}, -?\d+\.\d{5}|ainda não enviou/);
  await expect(view.getByTestId('assistant-map-link').first()).toBeVisible();

  await view.getByTestId('assistant-input').fill('Quais veículos estão offline?');
  await view.getByTestId('assistant-send').click();
  await expect(answers.nth(1)).toHaveText(
    /(dos seus \d+ veículos estão offline|Nenhum dos seus \d+ veículos)/,
  );

  await view.getByTestId('assistant-input').fill('Qual é a cor do céu?');
  await view.getByTestId('assistant-input').press('Enter');
  await expect(answers.nth(2)).toHaveText(/^Não entendi\./);

  await view.getByTestId('assistant-map-link').first().click();
  await expect(page).toHaveURL(/\/devices\/\d+$/);
});
