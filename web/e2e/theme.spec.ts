// White-label theme editor (dialog `theme`, PUT /{ns}/theme): an administrator changes the title, the primary and
// header colours and the logo, and sets a 3-image slider on the login screen; the app applies it without a reload,
// and a fresh visitor's login page shows the slider. The original theme is put back at the end (shared server).
import type { Page } from '@playwright/test';
import { deflateSync } from 'node:zlib';
import { accounts, expect, test } from './fixtures.ts';
import { tag } from './map-helpers.ts';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A real w×h PNG of one RGB colour. */
function png(w: number, h: number, [r, g, b]: [number, number, number]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: w }, () => [r, g, b]).flat()),
  ]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test.use({ actionTimeout: 20_000 });

async function uploadVia(page: Page, testId: string, name: string, buffer: Buffer) {
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId(testId).click();
  await (await chooser).setFiles({ name, mimeType: 'image/png', buffer });
}

test('an administrator re-brands the app: title, primary colour, logo and a 3-image login slider', async ({
  page,
  browser,
  loginAs,
}) => {
  test.setTimeout(120_000);
  await loginAs(accounts.admin.email, accounts.admin.password);
  const original = (await (await page.request.get('/rastro/assets/custom/config.json')).json()) as Record<
    string,
    unknown
  >;
  const t = tag();
  const title = `Frota ${t}`;
  try {
    await page.goto('/home');
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-theme').click();
    const dialog = page.getByTestId('theme-dialog');
    await expect(dialog.getByTestId('theme-title')).toBeVisible();

    await dialog.getByTestId('theme-title').fill(title);
    await uploadVia(page, 'theme-logo-upload', 'logo.png', png(120, 40, [232, 89, 12]));
    await expect(dialog.getByTestId('theme-logo-preview')).toHaveAttribute('src', /\/logo-[a-z0-9]+\.png$/);

    await dialog.getByTestId('theme-tab-colors').click();
    await dialog.getByTestId('theme-color-primary').fill('#e8590c');
    await dialog.getByTestId('theme-color-primary').press('Escape');
    await dialog.getByTestId('theme-color-header').fill('#1a1b1e');
    await dialog.getByTestId('theme-color-header').press('Escape');
    await expect(dialog.getByTestId('theme-preview-header')).toHaveCSS('background-color', 'rgb(26, 27, 30)');
    await expect(dialog.getByTestId('theme-preview-button')).toHaveCSS(
      'background-color',
      'rgb(232, 89, 12)',
    );

    await dialog.getByTestId('theme-tab-login').click();
    await dialog.getByTestId('theme-bg-type').getByText('Slider', { exact: true }).click();
    await expect(dialog.getByText('Até 3 imagens que se alternam; recomendado 1600x900')).toBeVisible();
    // a slider without images is refused before anything is sent
    await dialog.getByTestId('theme-tab-links').click();
    await dialog.getByTestId('theme-save').click();
    await expect(dialog.getByTestId('theme-slides-error')).toHaveText(
      'Envie pelo menos uma imagem para o slider',
    );
    const colours: Array<[number, number, number]> = [
      [25, 113, 194],
      [47, 158, 68],
      [240, 140, 0],
    ];
    for (let i = 1; i <= 3; i++) {
      await uploadVia(page, `theme-slide${i}-upload`, `slide${i}.png`, png(160, 90, colours[i - 1]));
      await expect(dialog.getByTestId(`theme-slide${i}-preview`)).toBeVisible();
    }

    await dialog.getByTestId('theme-save').click();
    await expect(page.getByText('Tema salvo')).toBeVisible();
    await expect(dialog).toHaveCount(0);

    // applied without a reload: header logo, page title, Mantine primary colour
    const logo = page.getByTestId('header').getByTestId('head-logo');
    await expect(logo).toHaveAttribute('src', /\/rastro\/assets\/custom\/images\/logo-[a-z0-9]+\.png$/);
    await expect(page).toHaveTitle(new RegExp(title));
    await expect
      .poll(() =>
        page.evaluate(() =>
          getComputedStyle(document.documentElement).getPropertyValue('--mantine-color-brand-6').trim(),
        ),
      )
      .toBe('#e8590c');

    await expect(page.getByTestId('header')).toHaveCSS('background-color', 'rgb(26, 27, 30)');
    await expect(page.getByTestId('header')).toHaveCSS('color', 'rgb(255, 255, 255)');

    const saved = (await (await page.request.get('/rastro/assets/custom/config.json')).json()) as {
      title: string;
      colors: { primary: string };
      login: { background: string; slides: string[] };
    };
    expect(saved.title).toBe(title);
    expect(saved.colors.primary).toBe('#e8590c');
    expect(saved.login.background).toBe('slider');
    expect(saved.login.slides).toHaveLength(3);

    // a new visitor's login page shows the slider with the 3 images
    const guest = await browser.newContext({ locale: 'pt-BR' });
    try {
      const login = await guest.newPage();
      await login.goto('/login');
      const bg = login.getByTestId('login-background');
      await expect(bg).toHaveAttribute('data-kind', 'slider');
      const slides = bg.getByTestId('login-slide');
      await expect(slides).toHaveCount(3);
      for (let i = 0; i < 3; i++) {
        const image = await slides.nth(i).evaluate((el) => getComputedStyle(el).backgroundImage);
        expect(image).toContain(saved.login.slides[i]);
      }
      await expect(bg.locator('[data-testid="login-slide"][data-active]')).toHaveCount(1);
      await expect(login).toHaveTitle(new RegExp(title));
      const images = await Promise.all(
        saved.login.slides.map(async (u) => (await login.request.get(u)).headers()['content-type']),
      );
      expect(images).toEqual(['image/png', 'image/png', 'image/png']);
    } finally {
      await guest.close();
    }
  } finally {
    const res = await page.request.put('/rastro/theme', { data: original });
    expect(res.status()).toBe(200);
  }
  const restored = (await (await page.request.get('/rastro/assets/custom/config.json')).json()) as {
    title: string;
  };
  expect(restored.title).toBe(original.title);
});
