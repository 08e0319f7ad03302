import { describe, expect, it } from 'vitest';
import {
  colourShades,
  defaultTheme,
  parseTheme,
  readableTextOn,
  SLIDER_MAX_IMAGES,
  themeFromBranding,
  themeIssueText,
  type ThemeSettings,
} from '../src/theme.ts';

const theme = (over: (t: ThemeSettings) => void = () => {}): ThemeSettings => {
  const t = defaultTheme();
  over(t);
  return t;
};

const issues = (input: unknown) => {
  const r = parseTheme(input);
  if (r.ok) throw new Error('expected issues');
  return r.issues;
};

describe('theme schema (PUT /{ns}/theme)', () => {
  it('accepts the default theme and a full slider theme, normalising colours to lower case', () => {
    expect(parseTheme(defaultTheme())).toEqual({ ok: true, theme: defaultTheme() });
    const r = parseTheme(
      theme((t) => {
        t.title = '  Frota Acme ';
        t.colors.primary = '#E8590C';
        t.colors.header = '#1A1B1E';
        t.login.background = 'slider';
        t.login.slides = [
          '/rastro/assets/custom/images/slide1-a.png',
          '/x/2.jpeg',
          'https://cdn.example/3.webp',
        ];
        t.whatsapp = 'https://wa.me/5511999999999';
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.theme.title).toBe('Frota Acme');
    expect(r.theme.colors.primary).toBe('#e8590c');
    expect(r.theme.colors.header).toBe('#1a1b1e');
    expect(r.theme.login.slides).toHaveLength(3);
  });

  it('a bad hex colour names the field and says what is expected', () => {
    for (const bad of ['red', '#12345', '#12345g', '#1234567', '']) {
      const found = issues(theme((t) => (t.colors.primary = bad)));
      expect(found).toEqual([{ path: 'colors.primary', message: 'hexColour' }]);
    }
    const header = issues(theme((t) => (t.colors.header = 'blue')));
    expect(header).toEqual([{ path: 'colors.header', message: 'hexColour' }]);
    expect(themeIssueText(header[0])).toBe('colors.header: expected a colour as #rrggbb');
  });

  it(`the slider takes at most ${SLIDER_MAX_IMAGES} images (SPEC §9) and at least one`, () => {
    const four = issues(
      theme((t) => {
        t.login.background = 'slider';
        t.login.slides = ['/a.png', '/b.png', '/c.png', '/d.png'];
      }),
    );
    expect(four).toEqual([{ path: 'login.slides', message: 'tooManySlides' }]);
    expect(themeIssueText(four[0])).toBe('login.slides: the slider holds at most 3 images');
    const none = issues(theme((t) => (t.login.background = 'slider')));
    expect(none).toEqual([{ path: 'login.slides', message: 'slidesRequired' }]);
  });

  it('an unknown background type is refused with the list of types', () => {
    const found = issues(theme((t) => ((t.login as { background: string }).background = 'video')));
    expect(found).toEqual([{ path: 'login.background', message: 'backgroundType' }]);
    expect(themeIssueText(found[0])).toBe(
      'login.background: the background is one of color, image, slider or animated',
    );
  });

  it('image background and image logo need their image; links must be http(s) or local paths', () => {
    expect(issues(theme((t) => (t.login.background = 'image')))).toEqual([
      { path: 'login.image', message: 'imageRequired' },
    ]);
    expect(issues(theme((t) => (t.headLogo.image = true)))).toEqual([
      { path: 'headLogo.url', message: 'logoImageRequired' },
    ]);
    for (const bad of ['javascript:alert(1)', '//evil.example/x.png', 'ftp://x', 'wa.me/55']) {
      expect(issues(theme((t) => (t.whatsapp = bad)))).toEqual([{ path: 'whatsapp', message: 'url' }]);
    }
  });

  it('logo width is 0 (automatic) or a whole percentage up to 100; the gradient takes 2 to 4 colours', () => {
    expect(issues(theme((t) => (t.logoWidth = 101)))).toEqual([{ path: 'logoWidth', message: 'logoWidth' }]);
    expect(issues(theme((t) => (t.logoWidth = 12.5)))).toEqual([{ path: 'logoWidth', message: 'logoWidth' }]);
    expect(issues(theme((t) => (t.login.gradient = ['#000000'])))).toEqual([
      { path: 'login.gradient', message: 'gradient' },
    ]);
  });

  it('wrong types and missing objects are issues, never exceptions', () => {
    expect(issues(null)).toEqual([{ path: '', message: 'invalid' }]);
    expect(themeIssueText(issues(null)[0])).toBe('body: missing or of the wrong type');
    const t = defaultTheme() as unknown as Record<string, unknown>;
    expect(issues({ ...t, colors: undefined })).toEqual([{ path: 'colors', message: 'invalid' }]);
    expect(issues({ ...t, title: 7 })).toEqual([{ path: 'title', message: 'invalid' }]);
  });
});

describe('themeFromBranding', () => {
  it('reads the managed fields of a branding config, defaults for what is missing or malformed', () => {
    expect(themeFromBranding({})).toEqual(defaultTheme());
    const t = themeFromBranding({
      title: 'Acme',
      headLogo: { image: true, url: '/l.png' },
      colors: { primary: '#E8590C', header: 'nonsense', menu: '' },
      login: {
        background: 'slider',
        slides: ['/1.png', 2, '/2.png', '/3.png', '/4.png'],
        gradient: ['#fff'],
      },
      logoWidth: 40,
      push: { enabled: true },
    });
    expect(t.title).toBe('Acme');
    expect(t.headLogo).toEqual({ image: true, text: 'Rastro', url: '/l.png' });
    expect(t.colors).toEqual({ primary: '#e8590c', header: '', menu: '', loginPanel: '' });
    expect(t.login.background).toBe('slider');
    expect(t.login.slides).toEqual(['/1.png', '/2.png', '/3.png']);
    expect(t.login.gradient).toEqual(defaultTheme().login.gradient);
    expect(t.logoWidth).toBe(40);
    expect(parseTheme(t).ok).toBe(true);
  });
});

describe('colours', () => {
  it('ten shades around the brand colour, which is shade 6', () => {
    const s = colourShades('#228be6');
    expect(s).toHaveLength(10);
    expect(s[6]).toBe('#228be6');
    for (const c of s) expect(c).toMatch(/^#[0-9a-f]{6}$/);
    expect(s[0] > s[5]).toBe(true); // lighter shades have larger channel values
    expect(colourShades('#000000')[9]).toBe('#000000');
    expect(() => colourShades('blue')).toThrow();
  });

  it('text on a background is black or white by contrast', () => {
    expect(readableTextOn('#ffffff')).toBe('#000000');
    expect(readableTextOn('#ffd43b')).toBe('#000000');
    expect(readableTextOn('#1a1b1e')).toBe('#ffffff');
    expect(readableTextOn('#1c7ed6')).toBe('#ffffff');
  });
});
