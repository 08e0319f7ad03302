// Issue #29: the date fields follow the app's language, not the browser's. Chromium runs in English here (its native
// date inputs would read mm/dd/yyyy); the app in pt-BR shows dd/mm/aaaa hh:mm, takes the date typed on the keyboard
// and names the calendar's months in Portuguese; in es the same in Spanish.
import { accounts, expect, test } from './fixtures.ts';

const PT_INVALID = 'O início não pode ser depois do fim';
const ES_INVALID = 'El inicio no puede ser posterior al fin';

test.use({ locale: 'en-US' });

test.describe('date fields in the app language', () => {
  test.beforeEach(async ({ loginAs }) => {
    await loginAs(accounts.admin.email, accounts.admin.password);
  });

  for (const [lng, custom, month, invalid] of [
    ['pt-BR', 'Personalizado', 'janeiro 2020', PT_INVALID],
    ['es', 'Personalizado', 'enero 2020', ES_INVALID],
  ] as const) {
    test(`${lng}: the report period reads dd/mm/aaaa hh:mm and takes keyboard entry`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.goto(`/reports/stops?locale=${lng}`);
      await page.getByTestId('report-period-select').click();
      await page.getByRole('option', { name: custom, exact: true }).click();
      const from = page.getByTestId('report-period-from');
      await expect(from).toHaveAttribute('placeholder', /^dd\/mm\/aaaa hh:mm$/);
      await expect(from).toHaveValue(/^\d{2}\/\d{2}\/\d{4} 00:00$/);
      expect(await from.evaluate((el) => (el as HTMLInputElement).type)).toBe('text');
      await from.fill('');
      await from.pressSequentially('05/01/2020 07:30');
      // the calendar follows to the typed day, named in the app's language
      await expect(page.getByRole('button', { name: `5 ${month}`, exact: true })).toHaveAttribute(
        'data-selected',
        'true',
      );
      await from.press('Tab');
      await expect(from).toHaveValue('05/01/2020 07:30');
      const to = page.getByTestId('report-period-to');
      await to.fill('');
      await to.pressSequentially('06/01/2020 18:00');
      await to.press('Tab');
      await expect(to).toHaveValue('06/01/2020 18:00');
      // a reversed range is refused in the app's language
      await to.fill('');
      await to.pressSequentially('04/01/2020 18:00');
      await to.press('Tab');
      await expect(page.getByText(invalid)).toBeVisible();
    });
  }
});
