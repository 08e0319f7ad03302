// What the language walks (issue #29) read on a page and what counts as a leak there: the missing-text marker ⟦,
// a known attribute key shown raw, an en-US text of the catalogues where the page's language has another, a US
// date or 12-hour time, a knots unit. The catalogues are the web's locale files and the domain's messages.
import type { Page } from '@playwright/test';
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { KNOWN_ATTRIBUTES, defaultMessages } from '../../packages/domain/src/index.ts';
import { localeFile, type WalkLocale } from './walk-roles.ts';

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

/**
 * Waits until the page is quiet: no loader, busy region or "loading" label, and the same amount of text in two
 * reads 400 ms apart (a screen's code and data arrive after its title), for at most 12 s.
 */
export async function settle(page: Page): Promise<void> {
  let last = -1;
  for (let i = 0; i < 30; i++) {
    const now = await page.evaluate(() => {
      const busy = document.querySelector(
        '.mantine-Loader-root, [aria-busy="true"], [aria-label^="Carregando"], [aria-label^="Cargando"], [aria-label^="Loading"]',
      );
      return busy ? -1 : document.body.innerText.length + document.querySelectorAll('*').length;
    });
    if (now >= 0 && now === last) return;
    last = now;
    await page.waitForTimeout(400);
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

// Texts of the libraries the app uses (MapLibre's controls, the browser's) that must never show untranslated.
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
  'SecurityException',
];

type Tree = Record<string, unknown>;
function leaves(node: unknown, prefix: string, out: Map<string, string>): Map<string, string> {
  if (typeof node === 'string') out.set(prefix, node);
  else if (node && typeof node === 'object')
    for (const [k, v] of Object.entries(node as Tree)) leaves(v, prefix ? `${prefix}.${k}` : k, out);
  return out;
}

function catalogue(locale: WalkLocale): Map<string, string> {
  const out = new Map<string, string>();
  const dir = resolve(import.meta.dirname, '../src/i18n/locales', locale);
  for (const file of readdirSync(dir)) {
    const ns = file.replace(/\.json$/, '');
    leaves(localeFile(locale, ns), ns, out);
  }
  for (const [k, v] of Object.entries(defaultMessages[locale])) out.set(`domain:${k}`, v);
  return out;
}

/** en-US texts whose key reads otherwise in `locale` and that no text of `locale` equals. */
function englishOnly(locale: WalkLocale): Set<string> {
  const en = catalogue('en-US');
  const own = catalogue(locale);
  const ownValues = new Set(own.values());
  const out = new Set<string>(LIBRARY_ENGLISH);
  for (const [key, value] of en) {
    const mine = own.get(key);
    if (mine === undefined || mine === value || ownValues.has(value)) continue;
    if (value.length < 4 || value.includes('{{') || !/[a-z]{3}/i.test(value)) continue;
    out.add(value.trim());
  }
  return out;
}

const english: Partial<Record<WalkLocale, Set<string>>> = {};

// mm/dd/yyyy (or yy) that cannot be dd/mm: a month first and a day over 12 second; 12-hour times (3:51pm, 3 p. m.)
const US_DATE = /\b(0?[1-9]|1[0-2])\/(1[3-9]|2\d|3[01])\/(\d{4}|\d{2})\b/;
const TWELVE_HOUR = /\b\d{1,2}(:\d{2})?\s?([ap]\.?\s?m\.?)(?![a-zà-ú])/i;
const PICKER_PATTERN = /\bmm\/dd\/(yyyy|yy)\b/i;
const KNOTS = /\d\s*(kn|nós|nudos)(?![\p{L}])|\((kn|nós|nudos)\)/u;

/** The leaks of one segment, as lines for the report. */
export function leaksOf(segment: Segment, locale: WalkLocale): string[] {
  const { text } = segment;
  const found: string[] = [];
  if (text.includes('⟦')) found.push('missing text ⟦');
  const raw = RAW_KEY.exec(text);
  if (raw) found.push(`raw attribute key "${raw[1]}"`);
  english[locale] ??= englishOnly(locale);
  if (english[locale].has(text)) found.push('en-US text');
  if (US_DATE.test(text) || PICKER_PATTERN.test(text)) found.push('US date');
  if (TWELVE_HOUR.test(text)) found.push('12-hour time');
  if (KNOTS.test(text)) found.push('knots');
  return found;
}
