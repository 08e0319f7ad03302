// Every i18n key the domain rules emit (zod messages, denials, login error codes, route and action errors), with
// its default wording in the three product languages. The web checks its locale files cover MESSAGE_KEYS and
// can seed them from defaultMessages. Where SPEC gives a wording, it is used verbatim in its own language.
// Keys are flat dotted paths ('validation.deviceNameRequired'); nestMessages() turns a flat map into the nested
// JSON i18next reads. The wordings live in messageCatalog/ by topic.
import { FEATURE_MESSAGES } from './messageCatalog/features.ts';
import { FORM_MESSAGES } from './messageCatalog/forms.ts';
import { INSIGHTS_MESSAGES } from './messageCatalog/insights.ts';
import { LOGIN_REPORT_MESSAGES } from './messageCatalog/loginAndReports.ts';
import { TRACCAR_ERROR_MESSAGES } from './messageCatalog/traccarErrors.ts';
import { TRACCAR_NAME_MESSAGES } from './messageCatalog/traccarNames.ts';
import { ATTRIBUTE_MESSAGES } from './messageCatalog/attributeNames.ts';
import { ALARM_MESSAGES } from './messageCatalog/alarms.ts';
import type { MessageLocale, Wording } from './messageCatalog/wording.ts';

export type { MessageLocale };
export const MESSAGE_LOCALES: readonly MessageLocale[] = ['pt-BR', 'es', 'en-US'];

const MESSAGES = {
  ...FORM_MESSAGES,
  ...FEATURE_MESSAGES,
  ...LOGIN_REPORT_MESSAGES,
  ...INSIGHTS_MESSAGES,
  ...TRACCAR_NAME_MESSAGES,
  ...TRACCAR_ERROR_MESSAGES,
  ...ATTRIBUTE_MESSAGES,
  ...ALARM_MESSAGES,
} as const satisfies Record<string, Wording>;

export type MessageKey = keyof typeof MESSAGES;
export const MESSAGE_KEYS = Object.keys(MESSAGES) as MessageKey[];

export function isMessageKey(key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(MESSAGES, key);
}

/** Flat wording per locale: defaultMessages['pt-BR']['validation.channelRequired'] === 'Selecione pelo menos um canal'. */
export const defaultMessages: Readonly<Record<MessageLocale, Readonly<Record<MessageKey, string>>>> = (() => {
  const out = { 'pt-BR': {}, es: {}, 'en-US': {} } as Record<MessageLocale, Record<MessageKey, string>>;
  for (const key of MESSAGE_KEYS) for (const l of MESSAGE_LOCALES) out[l][key] = MESSAGES[key][l];
  return out;
})();

/** Minimal {{name}} interpolation, for server-side texts and tests. */
export function formatMessage(
  key: MessageKey,
  locale: MessageLocale = 'pt-BR',
  values: Record<string, string | number> = {},
): string {
  return defaultMessages[locale][key].replace(/\{\{(\w+)\}\}/g, (m, name: string) =>
    name in values ? String(values[name]) : m,
  );
}

export type NestedMessages = { [key: string]: string | NestedMessages };

/** 'a.b': 'x' ⇒ { a: { b: 'x' } }, the shape of i18next JSON resources. */
export function nestMessages(flat: Readonly<Record<string, string>>): NestedMessages {
  const root: NestedMessages = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.');
    let node = root;
    for (const p of parts.slice(0, -1)) {
      const next = node[p];
      if (typeof next === 'object') node = next;
      else node = node[p] = {};
    }
    node[parts[parts.length - 1]] = value;
  }
  return root;
}
