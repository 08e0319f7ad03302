// What the language walks (issue #29) read on a page, when the page is settled, and what counts as a leak there:
// the missing-text marker ⟦, a known attribute key or device category shown raw, a text of another language's
// catalogue where the page's language has its own, a library's English (MapLibre, Traccar's errors, exception
// names), a US or ISO date or a 12-hour time, a knots unit, true/false, an ungrouped big number or a decimal point
// where the language writes a comma, and a plural after 1. The catalogues are the web's locale files and the
// domain's messages. web/test/textsWalkChecks.test.ts feeds it one sample of each of the issue's leak groups.
import type { Page, Request } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { KNOWN_ATTRIBUTES, defaultMessages } from '../../packages/domain/src/index.ts';
import { localeFile, type WalkLocale } from './walk-locales.ts';

export interface Segment {
  /** text, title, aria-label, placeholder, alt or value */
  kind: string;
  text: string;
  /** the element's tag, test id or class, to find it */
  where: string;
}

/** Every visible text node of the page, and every title, aria-label, placeholder and alt, and visible inputs' values. */
export async function readSegments(page: Page): Promise<Segment[]> {
  return page.evaluate(() => {
    const describe = (el: Element): string => {
      const near = el.closest('[data-testid]');
      const id = near?.getAttribute('data-testid');
      const cls = typeof el.className === 'string' ? el.className.split(' ')[0] : '';
      return `${el.tagName.toLowerCase()}${cls ? '.' + cls : ''}${id ? ` in [${id}]` : ''}`;
    };
    const visible = (el: Element) => el.checkVisibility({ visibilityProperty: true });
    const out: Segment[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = (n.textContent ?? '').replace(/\s+/g, ' ').trim();
      const el = n.parentElement;
      if (!text || !el || el.closest('script,style,noscript') || !visible(el)) continue;
      out.push({ kind: 'text', text, where: describe(el) });
    }
    for (const el of document.querySelectorAll('[title],[aria-label],[placeholder],[alt]'))
      for (const kind of ['title', 'aria-label', 'placeholder', 'alt']) {
        const text = el.getAttribute(kind)?.trim();
        if (text) out.push({ kind, text, where: describe(el) });
      }
    for (const el of document.querySelectorAll('input')) {
      if (!['text', 'search', ''].includes(el.type) || !el.value || !visible(el)) continue;
      out.push({ kind: 'value', text: el.value.trim(), where: describe(el) });
    }
    return out;
  });
}

const inFlight = new WeakMap<Page, Set<Request>>();

/** From now on counts the page's requests in flight (websockets aside), for settle(). */
export function trackRequests(page: Page): void {
  const open = new Set<Request>();
  inFlight.set(page, open);
  page.on('request', (r) => {
    if (r.resourceType() !== 'websocket' && r.resourceType() !== 'eventsource') open.add(r);
  });
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
}

/**
 * Waits until the page is quiet: no request in flight (trackRequests), no loader, busy region or "loading" label,
 * and the same number of elements in two reads apart (a screen's code and data arrive after its title, and its
 * first render after its data; live positions only change texts); gives up after about 100 reads (the checks then
 * read what is there).
 */
export async function settle(page: Page): Promise<void> {
  const open = inFlight.get(page);
  let last = -1;
  for (let i = 0; i < 100; i++) {
    const now = open?.size
      ? -1
      : await page.evaluate(async () => {
          await new Promise((done) => setTimeout(done, 60));
          const busy = document.querySelector(
            '.mantine-Loader-root, [aria-busy="true"], [aria-label^="Carregando"], [aria-label^="Cargando"], [aria-label^="Loading"]',
          );
          return busy ? -1 : document.querySelectorAll('*').length;
        });
    if (now >= 0 && now === last) return;
    last = now;
    if (now < 0) await page.waitForTimeout(100);
  }
}

// Known keys a person would recognise as Traccar's: every camelCase one and the lowercase ones that are no word of
// Portuguese or Spanish and no unit ("rpm" is the unit of the rpm value; status, input, result … are left out).
const LOWERCASE_KEYS = [
  'battery',
  'power',
  'distance',
  'hours',
  'ignition',
  'motion',
  'charge',
  'blocked',
  'armed',
  'door',
  'roaming',
  'rssi',
  'sat',
  'hdop',
  'pdop',
  'vdop',
  'fuel',
  'throttle',
  'iccid',
  'odometer',
];
const RAW_KEY = new RegExp(
  `\\b(${[...Object.keys(KNOWN_ATTRIBUTES).filter((k) => /[A-Z]/.test(k)), ...LOWERCASE_KEYS].join('|')})\\b`,
);

// Texts of the libraries the app uses (MapLibre's controls, the browser's, Traccar's errors) that must never show
// untranslated; those of several words are leaks inside a longer text too.
const LIBRARY_ENGLISH = [
  'Zoom in',
  'Zoom out',
  'Drag to rotate map, click to reset north',
  'Reset bearing to north',
  'Toggle attribution',
  'Map',
  'Enter fullscreen',
  'Exit fullscreen',
  'Find my location',
  'Toggle password visibility',
  'Write access denied',
  'Manager access required',
  'Admin access required',
  'Account is disabled',
  'SecurityException',
];
const LIBRARY_PHRASES = LIBRARY_ENGLISH.filter((t) => t.includes(' '));

type Tree = Record<string, unknown>;
function leaves(node: unknown, prefix: string, out: Map<string, string>): Map<string, string> {
  if (typeof node === 'string') out.set(prefix, node);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node as Tree)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

const catalogues: Partial<Record<WalkLocale, Map<string, string>>> = {};
function catalogue(locale: WalkLocale): Map<string, string> {
  const known = catalogues[locale];
  if (known) return known;
  const out = new Map<string, string>();
  const dir = resolve(import.meta.dirname, '../src/i18n/locales', locale);
  for (const file of readdirSync(dir)) {
    const ns = file.replace(/\.json$/, '');
    leaves(localeFile(locale, ns), ns, out);
  }
  for (const [k, v] of Object.entries(defaultMessages[locale])) out.set(`domain:${k}`, v);
  catalogues[locale] = out;
  return out;
}

/** `other`'s texts whose key reads otherwise in `locale` and that no text of `locale` equals. */
function foreignOnly(locale: WalkLocale, other: WalkLocale): Set<string> {
  const own = catalogue(locale);
  const ownValues = new Set(own.values());
  const out = new Set<string>(other === 'en-US' ? LIBRARY_ENGLISH : []);
  for (const [key, value] of catalogue(other)) {
    const mine = own.get(key);
    if (mine === undefined || mine === value || ownValues.has(value)) continue;
    if (value.length < 4 || value.includes('{{') || !/[a-z]{3}/i.test(value)) continue;
    out.add(value.trim());
  }
  return out;
}

const foreign: Partial<Record<WalkLocale, [WalkLocale, Set<string>][]>> = {};
function foreignOf(locale: WalkLocale): [WalkLocale, Set<string>][] {
  foreign[locale] ??= (['en-US', 'pt-BR', 'es'] as const)
    .filter((o) => o !== locale)
    .map((o) => [o, foreignOnly(locale, o)]);
  return foreign[locale];
}

// Device category keys (Traccar's icon names) that are no word of the page's language: "bus, car" is a raw list.
function rawCategories(): RegExp {
  const words = new Set(
    (['pt-BR', 'es'] as const).flatMap((l) =>
      Object.entries(defaultMessages[l])
        .filter(([k]) => k.startsWith('categories.'))
        .map(([, v]) => v.toLowerCase()),
    ),
  );
  const keys = Object.keys(defaultMessages['en-US'])
    .filter((k) => k.startsWith('categories.'))
    .map((k) => k.slice('categories.'.length))
    .filter((k) => !words.has(k));
  return new RegExp(`(?<![\\p{L}\\d_-])(${keys.join('|')})(?![\\p{L}\\d_-])`, 'u');
}
const RAW_CATEGORY = rawCategories();

// mm/dd/yyyy (or yy) that cannot be dd/mm: a month first and a day over 12 second; 12-hour times (3:51pm, 3 p. m.)
const US_DATE = /\b(0?[1-9]|1[0-2])\/(1[3-9]|2\d|3[01])\/(\d{4}|\d{2})\b/;
const TWELVE_HOUR = /\b\d{1,2}(:\d{2})?\s?([ap]\.?\s?m\.?)(?![a-zà-ú])/i;
const PICKER_PATTERN = /\b(mm\/dd\/(yyyy|yy)|dd\/mm\/yyyy|aaaa-mm-dd|yyyy-mm-dd)\b/i;
const ISO_DATE = /(?<![\d-])\d{4}-\d{2}-\d{2}(?![\d-])/;
const KNOTS = /\d\s*(kn|nós|nudos)(?![\p{L}])|\((kn|nós|nudos)\)/u;
const BOOLEAN = /(?<![\p{L}\d_.-])(true|false)(?![\p{L}\d_.-])/u;
// 10000 and over without a thousands separator (milliseconds as hours: 42300000); identifiers are letters and digits
const UNGROUPED = /(?<![\p{L}\d.,:/+#_-])\d{5,12}(?![\p{L}\d.,:/_-])/u;
// a decimal point (3.91) where the language writes a comma; versions (1.2.3) and grouped thousands (1.000) are not
const DECIMAL_POINT = /(?<![\p{L}\d.,/_-])\d{1,4}\.\d{1,2}(?![\p{L}\d.,])/u;
// "1 mensagens": a plural noun after one ("mes" is Spanish for month, singular)
const ONE_PLURAL = /(?<![\d.,:/-])\b1 (?!mes\b)(\p{Ll}+(ns|os|as|es))(?!\p{L})/u;
const EXCEPTION = /\b[A-Z][A-Za-z]*(Exception|Error):/;

/** The leaks of one segment, as lines for the report. */
export function leaksOf(segment: Segment, locale: WalkLocale): string[] {
  const { text, kind } = segment;
  const prose = kind !== 'value';
  const found: string[] = [];
  if (text.includes('⟦')) found.push('missing text ⟦');
  const raw = RAW_KEY.exec(text);
  if (raw) found.push(`raw attribute key "${raw[1]}"`);
  const category = RAW_CATEGORY.exec(text);
  if (category) found.push(`raw category "${category[1]}"`);
  for (const [other, texts] of foreignOf(locale)) if (texts.has(text)) found.push(`${other} text`);
  const phrase = LIBRARY_PHRASES.find((p) => text !== p && text.includes(p));
  if (phrase) found.push(`en-US text "${phrase}"`);
  if (EXCEPTION.test(text)) found.push('exception name');
  if (US_DATE.test(text) || PICKER_PATTERN.test(text)) found.push('US date');
  if (prose && ISO_DATE.test(text)) found.push('ISO date');
  if (TWELVE_HOUR.test(text)) found.push('12-hour time');
  if (KNOTS.test(text)) found.push('knots');
  if (BOOLEAN.test(text)) found.push('true/false');
  if (prose && UNGROUPED.test(text)) found.push('ungrouped number');
  if (prose && locale !== 'en-US' && DECIMAL_POINT.test(text)) found.push('decimal point');
  if (ONE_PLURAL.test(text)) found.push('plural after 1');
  return found;
}
