// Autolink (issue #11, SPEC §2 /autolink and /autolink/{id}): a tracker reports with an unknown identifier (OsmAnd,
// the real protocol path), its owner opens the sticker's link, sees that the server has heard from it, names it
// and links it; the device opens on the map. A bad identifier gets the translated message.
import { accounts, expect, test } from './fixtures.ts';
import { tag } from './map-helpers.ts';

test('a tracker that reported unknown is linked to the account in one step', async ({ page, loginAs }) => {
  await loginAs(accounts.manager.email, accounts.manager.password);
  const imei = `86${Date.now()}`.slice(0, 15);
  // the tracker reports before anyone registered it: refused, but remembered
  const res = await page.request.post('/', {
    form: { id: imei, lat: '-23.561', lon: '-46.655', timestamp: String(Math.floor(Date.now() / 1000)) },
  });
  expect(res.status()).toBe(400);

  await page.goto('/autolink/abc def');
  await page.getByTestId('autolink-name').fill('Carro');
  await page.getByTestId('autolink-submit').click();
  await expect(page.getByText('Digite o identificador do rastreador (IMEI ou serial)')).toBeVisible();

  await page.goto(`/autolink/${imei}`);
  await expect(page.getByTestId('autolink-uniqueId')).toHaveValue(imei);
  await expect(page.getByTestId('autolink-status')).toContainText(
    'Este rastreador já se comunicou com o servidor (1 mensagem,',
  );
  const name = `Autovínculo ${tag()}`;
  await page.getByTestId('autolink-name').fill(name);
  await page.getByTestId('autolink-submit').click();
  await expect(page.getByTestId('autolink-done')).toContainText(`${name} foi vinculado à sua conta.`);
  await page.getByTestId('autolink-open').click();
  await expect(page).toHaveURL(/\/devices\/\d+$/);
  await expect(page.getByTestId('detail-name')).toHaveText(name);

  // the same identifier again: already registered
  await page.goto(`/autolink/${imei}`);
  await expect(page.getByTestId('autolink-status')).toHaveText('Este rastreador já está cadastrado');
  await expect(page.getByTestId('autolink-submit')).toBeDisabled();
});

test('a read-only user is refused by the server', async ({ page, loginAs }) => {
  await loginAs(accounts.readonly.email, accounts.readonly.password);
  const res = await page.request.post('/rastro/autolink', { data: { uniqueId: `RO-${tag()}`, name: 'x' } });
  expect([400, 403]).toContain(res.status());
});
