// The white-label theme (SPEC §2 "theme editor": login screen, logos, colours, static image, slider or
// animated background; §9 slider: 3 images, recommended 1600x900). The body of PUT /{ns}/theme, shared by the
// server (which writes it into DATA_DIR/custom/config.json) and the web's theme dialog.
// Error messages are keys: the web translates them as `theme:errors.<key>`, the server answers
// THEME_MESSAGES[key] in its 400 text.
import { z } from 'zod';
import { HEX } from './colour.ts';

// Colour helpers live in colour.ts (no zod): the branding provider on every page needs them, not the schemas.
export { colourShades, readableTextOn } from './colour.ts';

export const LOGIN_BACKGROUNDS = ['color', 'image', 'slider', 'animated'] as const;
export type LoginBackgroundType = (typeof LOGIN_BACKGROUNDS)[number];

/** Image slots of POST /{ns}/theme/images/{slot}. */
export const THEME_IMAGE_SLOTS = ['logo', 'loginLogo', 'background', 'slide1', 'slide2', 'slide3'] as const;
export type ThemeImageSlot = (typeof THEME_IMAGE_SLOTS)[number];
export const SLIDER_MAX_IMAGES = 3;
export const SLIDER_RECOMMENDED = { width: 1600, height: 900 } as const;
export const THEME_IMAGE_MAX_BYTES = 2_000_000;
/** Accepted upload types (checked by magic bytes on the server). */
export const THEME_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

export const THEME_MESSAGES = {
  titleRequired: 'the title is required',
  tooLong: 'the text is too long',
  hexColour: 'expected a colour as #rrggbb',
  url: 'expected an http(s) address or a path starting with /',
  logoWidth: 'the logo width is a whole percentage between 1 and 100 (0 = automatic)',
  backgroundType: 'the background is one of color, image, slider or animated',
  tooManySlides: `the slider holds at most ${SLIDER_MAX_IMAGES} images`,
  slidesRequired: 'a slider background needs at least one image',
  imageRequired: 'an image background needs an image',
  logoImageRequired: 'an image logo needs an uploaded image',
  gradient: 'the animated background takes 2 to 4 colours',
  invalid: 'missing or of the wrong type',
} as const;
export type ThemeMessage = keyof typeof THEME_MESSAGES;

const hex = z
  .string()
  .trim()
  .regex(HEX, 'hexColour')
  .transform((s) => s.toLowerCase());
/** A colour or '' (follow the light/dark scheme). */
const optionalHex = z.union([z.literal(''), hex], { message: 'hexColour' });
/** '' or an http(s) address or a local path (never `javascript:`, never protocol-relative `//host`). */
const link = z
  .string()
  .trim()
  .max(500, 'tooLong')
  .refine((s) => s === '' || /^https?:\/\/[^\s]+$/i.test(s) || /^\/(?!\/)[^\s]*$/.test(s), 'url');

export const themeSchema = z
  .object({
    title: z.string().trim().min(1, 'titleRequired').max(60, 'tooLong'),
    headLogo: z.object({
      image: z.boolean(),
      text: z.string().trim().max(40, 'tooLong'),
      url: link,
    }),
    /** Percent of the logo box; 0 = automatic (the server attribute {ns}.logoWidth wins when set). */
    logoWidth: z.number({ message: 'logoWidth' }).int('logoWidth').min(0, 'logoWidth').max(100, 'logoWidth'),
    colors: z.object({
      primary: hex,
      header: optionalHex,
      menu: optionalHex,
      loginPanel: optionalHex,
    }),
    login: z.object({
      background: z.enum(LOGIN_BACKGROUNDS, { message: 'backgroundType' }),
      color: hex,
      image: link,
      slides: z.array(link.refine((s) => s !== '', 'url')).max(SLIDER_MAX_IMAGES, 'tooManySlides'),
      gradient: z.array(hex).min(2, 'gradient').max(4, 'gradient'),
      logo: link,
    }),
    whatsapp: link,
    androidApp: link,
    appleApp: link,
    dataPolicy: link,
  })
  .superRefine((t, ctx) => {
    if (t.headLogo.image && !t.headLogo.url)
      ctx.addIssue({ code: 'custom', path: ['headLogo', 'url'], message: 'logoImageRequired' });
    if (t.login.background === 'image' && !t.login.image)
      ctx.addIssue({ code: 'custom', path: ['login', 'image'], message: 'imageRequired' });
    if (t.login.background === 'slider' && t.login.slides.length === 0)
      ctx.addIssue({ code: 'custom', path: ['login', 'slides'], message: 'slidesRequired' });
  });

export type ThemeSettings = z.infer<typeof themeSchema>;

export const defaultTheme = (): ThemeSettings => ({
  title: 'Rastro',
  headLogo: { image: false, text: 'Rastro', url: '' },
  logoWidth: 0,
  colors: { primary: '#228be6', header: '', menu: '', loginPanel: '' },
  login: {
    background: 'color',
    color: '#f1f3f5',
    image: '',
    slides: [],
    gradient: ['#1c7ed6', '#7048e8', '#0ca678'],
    logo: '',
  },
  whatsapp: '',
  androidApp: '',
  appleApp: '',
  dataPolicy: '',
});

export interface ThemeIssue {
  /** Dotted field path, e.g. `colors.primary` or `login.slides`. */
  path: string;
  message: ThemeMessage;
}

export type ThemeParse = { ok: true; theme: ThemeSettings } | { ok: false; issues: ThemeIssue[] };

const asMessage = (m: string): ThemeMessage => (m in THEME_MESSAGES ? (m as ThemeMessage) : 'invalid');

/** Validates a theme body; issues carry message keys (see THEME_MESSAGES). */
export function parseTheme(input: unknown): ThemeParse {
  const r = themeSchema.safeParse(input);
  if (r.success) return { ok: true, theme: r.data };
  return {
    ok: false,
    issues: r.error.issues.map((i) => ({
      path: i.path.join('.'),
      message: asMessage(i.message),
    })),
  };
}

/** One readable line for a 400 answer: `colors.primary: expected a colour as #rrggbb`. */
export function themeIssueText(issue: ThemeIssue): string {
  return `${issue.path || 'body'}: ${THEME_MESSAGES[issue.message]}`;
}

/**
 * The theme held by a branding config (GET /{ns}/assets/custom/config.json): every managed field, missing ones
 * from defaultTheme. Unknown or malformed values fall back to the default.
 */
export function themeFromBranding(b: unknown): ThemeSettings {
  const d = defaultTheme();
  const o = (b && typeof b === 'object' ? b : {}) as Record<string, unknown>;
  const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
  const str = (v: unknown, fb: string) => (typeof v === 'string' ? v : fb);
  const colour = (v: unknown, fb: string) => (typeof v === 'string' && HEX.test(v) ? v.toLowerCase() : fb);
  const optColour = (v: unknown, fb: string) => (v === '' ? '' : colour(v, fb));
  const head = obj(o.headLogo);
  const colors = obj(o.colors);
  const login = obj(o.login);
  const strings = (v: unknown) =>
    Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];
  const gradient = strings(login.gradient).filter((s) => HEX.test(s));
  const width = typeof o.logoWidth === 'number' && Number.isInteger(o.logoWidth) ? o.logoWidth : 0;
  return {
    title: str(o.title, d.title),
    headLogo: {
      image: typeof head.image === 'boolean' ? head.image : d.headLogo.image,
      text: str(head.text, d.headLogo.text),
      url: str(head.url, d.headLogo.url),
    },
    logoWidth: width >= 0 && width <= 100 ? width : 0,
    colors: {
      primary: colour(colors.primary, d.colors.primary),
      header: optColour(colors.header, d.colors.header),
      menu: optColour(colors.menu, d.colors.menu),
      loginPanel: optColour(colors.loginPanel, d.colors.loginPanel),
    },
    login: {
      background: (LOGIN_BACKGROUNDS as readonly unknown[]).includes(login.background)
        ? (login.background as LoginBackgroundType)
        : d.login.background,
      color: colour(login.color, d.login.color),
      image: str(login.image, ''),
      slides: strings(login.slides).slice(0, SLIDER_MAX_IMAGES),
      gradient: gradient.length >= 2 ? gradient.slice(0, 4).map((s) => s.toLowerCase()) : d.login.gradient,
      logo: str(login.logo, ''),
    },
    whatsapp: str(o.whatsapp, ''),
    androidApp: str(o.androidApp, ''),
    appleApp: str(o.appleApp, ''),
    dataPolicy: str(o.dataPolicy, ''),
  };
}
