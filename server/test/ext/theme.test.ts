// PUT /{ns}/theme and POST /{ns}/theme/images/{slot} (white-label theme editor, SPEC §2, §6, §7 client A).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultTheme, THEME_IMAGE_MAX_BYTES, type ThemeSettings } from '@rastro/domain';
import {
  api,
  createUser,
  makeTestApp,
  startGatewayPair,
  type CreatedUser,
  type GatewayPair,
  type TestApp,
} from '../helpers/index.ts';

let t: TestApp;
let basic: TestApp;
let user: CreatedUser;

beforeAll(async () => {
  t = await makeTestApp();
  basic = await makeTestApp({ edition: 'basic' });
  user = await createUser(t);
});
afterAll(async () => {
  await t.close();
  await basic.close();
});

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);

const theme = (over: (x: ThemeSettings) => void = () => {}): ThemeSettings => {
  const x = defaultTheme();
  over(x);
  return x;
};
const customFile = (a: TestApp) => join(a.dir, 'custom', 'config.json');
const config = async (a: TestApp) =>
  (await a.app.inject({ method: 'GET', url: '/rastro/assets/custom/config.json' })).json();
const upload = (a: TestApp, cookie: string | null, slot: string, body: Buffer, type = 'image/png') =>
  a.app.inject({
    method: 'POST',
    url: `/rastro/theme/images/${slot}`,
    headers: { ...(cookie ? { cookie } : {}), 'content-type': type },
    payload: body,
  });

describe('PUT /{ns}/theme', () => {
  it('an administrator saves title, colours and a slider login; GET config.json reflects it', async () => {
    const body = theme((x) => {
      x.title = 'Frota Acme';
      x.headLogo = { image: false, text: 'ACME', url: '' };
      x.colors.primary = '#E8590C';
      x.colors.header = '#1a1b1e';
      x.login.background = 'slider';
      x.login.slides = ['/rastro/a.png', '/rastro/b.png', '/rastro/c.png'];
      x.whatsapp = 'https://wa.me/5511999999999';
    });
    const res = await api(t.app, t.admin, 'PUT', '/rastro/theme', body);
    expect(res.statusCode).toBe(200);
    expect(res.json().title).toBe('Frota Acme');
    const c = await config(t);
    expect(c.title).toBe('Frota Acme');
    expect(c.headLogo).toEqual({ image: false, text: 'ACME', url: '' });
    expect(c.colors).toEqual({ primary: '#e8590c', header: '#1a1b1e', menu: '', loginPanel: '' });
    expect(c.login.background).toBe('slider');
    expect(c.login.slides).toHaveLength(3);
    expect(c.whatsapp).toBe('https://wa.me/5511999999999');
    // no temporary files left next to the config
    expect(readdirSync(join(t.dir, 'custom')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps the fields it does not manage (push, geolocation, unknown keys) in the custom file', async () => {
    mkdirSync(join(t.dir, 'custom'), { recursive: true });
    writeFileSync(
      customFile(t),
      JSON.stringify({
        push: { enabled: true, vapidPublicKey: 'BPk' },
        geolocation: { ipUrl: 'https://ip.example' },
        headLogo: { extra: 1 },
        resellerId: 'acme-42',
      }),
    );
    const res = await api(
      t.app,
      t.admin,
      'PUT',
      '/rastro/theme',
      theme((x) => (x.title = 'Kept')),
    );
    expect(res.statusCode).toBe(200);
    const file = JSON.parse(readFileSync(customFile(t), 'utf8'));
    expect(file.resellerId).toBe('acme-42');
    expect(file.push).toEqual({ enabled: true, vapidPublicKey: 'BPk' });
    expect(file.geolocation).toEqual({ ipUrl: 'https://ip.example' });
    expect(file.headLogo.extra).toBe(1);
    expect(file.title).toBe('Kept');
    const c = await config(t);
    expect(c.push).toEqual({ enabled: true, vapidPublicKey: 'BPk' });
    expect(c.title).toBe('Kept');
  });

  it('refuses a non-administrator (403) and a signed-out caller (401)', async () => {
    const before = readFileSync(customFile(t), 'utf8');
    const res = await api(
      t.app,
      user.cookie,
      'PUT',
      '/rastro/theme',
      theme((x) => (x.title = 'Hijack')),
    );
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe('SecurityException: Administrator access required');
    const anon = await api(t.app, null, 'PUT', '/rastro/theme', theme());
    expect(anon.statusCode).toBe(401);
    expect(readFileSync(customFile(t), 'utf8')).toBe(before);
  });

  it('a basic-edition server refuses the theme editor, even to an administrator', async () => {
    const res = await api(basic.app, basic.admin, 'PUT', '/rastro/theme', theme());
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe('SecurityException: The theme editor needs a Plus server');
    expect(existsSync(customFile(basic))).toBe(false);
    expect((await upload(basic, basic.admin, 'logo', PNG)).statusCode).toBe(403);
  });

  it('a bad body is a 400 naming the field, never a 500', async () => {
    const cases: Array<[unknown, string]> = [
      [theme((x) => (x.colors.primary = 'red')), 'colors.primary: expected a colour as #rrggbb'],
      [
        theme((x) => {
          x.login.background = 'slider';
          x.login.slides = ['/a.png', '/b.png', '/c.png', '/d.png'];
        }),
        'login.slides: the slider holds at most 3 images',
      ],
      [
        { ...theme(), login: { ...theme().login, background: 'video' } },
        'login.background: the background is one of color, image, slider or animated',
      ],
      [{ ...theme(), title: '' }, 'title: the title is required'],
      [[], 'body: missing or of the wrong type'],
    ];
    for (const [body, text] of cases) {
      const res = await api(t.app, t.admin, 'PUT', '/rastro/theme', body);
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe(`IllegalArgumentException: ${text}`);
    }
    const raw = await t.app.inject({
      method: 'PUT',
      url: '/rastro/theme',
      headers: { cookie: t.admin, 'content-type': 'application/json' },
      payload: '{ broken',
    });
    expect(raw.statusCode).toBe(400);
    expect(await config(t)).toMatchObject({ title: 'Kept' });
  });
});

describe('POST /{ns}/theme/images/{slot}', () => {
  it('stores a png logo under a versioned name, served publicly; saving the theme points the logo at it', async () => {
    const res = await upload(t, t.admin, 'logo', PNG);
    expect(res.statusCode).toBe(200);
    const { url, type } = res.json();
    expect(type).toBe('image/png');
    expect(url).toMatch(/^\/rastro\/assets\/custom\/images\/logo-[a-z0-9]+\.png$/);
    const img = await t.app.inject({ method: 'GET', url });
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.equals(PNG)).toBe(true);
    const second = (await upload(t, t.admin, 'logo', JPEG, 'application/octet-stream')).json();
    expect(second.url).toMatch(/\/logo-[a-z0-9]+\.jpeg$/);
    expect(second.url).not.toBe(url);

    const saved = await api(
      t.app,
      t.admin,
      'PUT',
      '/rastro/theme',
      theme((x) => (x.headLogo = { image: true, text: 'Acme', url })),
    );
    expect(saved.statusCode).toBe(200);
    expect((await config(t)).headLogo).toEqual({ image: true, text: 'Acme', url });
  });

  it('wrong magic bytes are 400, too large 413, unknown slot 400, non-admin 403', async () => {
    const fake = await upload(t, t.admin, 'slide1', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'));
    expect(fake.statusCode).toBe(400);
    expect(fake.body).toBe('IllegalArgumentException: The file is not a PNG, JPEG or WebP image');
    const big = Buffer.concat([PNG, Buffer.alloc(THEME_IMAGE_MAX_BYTES, 0)]);
    const tooBig = await upload(t, t.admin, 'slide1', big);
    expect(tooBig.statusCode).toBe(413);
    const slot = await upload(t, t.admin, 'favicon', PNG);
    expect(slot.statusCode).toBe(400);
    expect(slot.body).toContain('Unknown image slot');
    expect((await upload(t, user.cookie, 'slide1', PNG)).statusCode).toBe(403);
    expect((await upload(t, null, 'slide1', PNG)).statusCode).toBe(401);
  });

  it('only stored theme image names are served', async () => {
    for (const file of ['..%2Fconfig.json', 'logo.png', 'logo-abcdef.gif', 'other-abcdef.png']) {
      const res = await t.app.inject({ method: 'GET', url: `/rastro/assets/custom/images/${file}` });
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('gateway mode', () => {
  let pair: GatewayPair;
  let other: CreatedUser;
  beforeAll(async () => {
    pair = await startGatewayPair('rastro-gw-theme-');
    other = await createUser(pair.upstream);
  });
  afterAll(async () => {
    await pair.close();
  });

  it("asks the upstream Traccar who the caller is and writes the gateway's own DATA_DIR", async () => {
    const put = (cookie: string) =>
      fetch(`${pair.url}/${pair.ns}/theme`, {
        method: 'PUT',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(theme((x) => (x.title = 'Gateway Fleet'))),
      });
    expect((await put(other.cookie)).status).toBe(403);
    const res = await put(pair.upstream.admin);
    expect(res.status).toBe(200);
    const c = (await (await fetch(`${pair.url}/${pair.ns}/assets/custom/config.json`)).json()) as {
      title: string;
    };
    expect(c.title).toBe('Gateway Fleet');
    expect(JSON.parse(readFileSync(join(pair.dir, 'custom', 'config.json'), 'utf8')).title).toBe(
      'Gateway Fleet',
    );
  });
});
