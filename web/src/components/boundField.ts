// The props of a text field bound to one text key of a form (issue #33): its label `fields.<key>` (or
// `<labels>.<key>`) in the form's namespace, its value, the change, its translated error and the test id
// `<prefix>-<key>`. Spread on a TextInput or a Textarea, then add or override what is the field's own:
// `<TextInput {...field('name')} withAsterisk />`. Used by the device, driver, geofence, computed attribute, user,
// notification rule, theme, server settings and invoice forms. `choiceBinder` does the same for a Select (no choice:
// ''), `flagBinder` for a switch or a checkbox bound to a yes/no key: `<Switch {...flag('disabled')} />`.
import type { TFunction } from 'i18next';

/** The keys of F whose values are text. */
export type TextKey<F> = { [K in keyof F]: F[K] extends string ? K : never }[keyof F] & string;
/** The keys of F whose values are yes/no. */
export type FlagKey<F> = { [K in keyof F]: F[K] extends boolean ? K : never }[keyof F] & string;

export interface BoundForm<F> {
  t: TFunction;
  values: F;
  set(key: TextKey<F>, value: string): void;
  /** The translated error of a field, or undefined. */
  err(key: string): string | undefined;
}

export function fieldBinder<F>(form: BoundForm<F>, prefix: string, labels = 'fields') {
  return (key: TextKey<F>) => ({
    label: form.t(`${labels}.${key}`),
    value: String(form.values[key]),
    onChange: (e: { currentTarget: { value: string } }) => form.set(key, e.currentTarget.value),
    error: form.err(key),
    'data-testid': `${prefix}-${key}`,
  });
}

export function choiceBinder<F>(form: BoundForm<F>, prefix: string, labels = 'fields') {
  const text = fieldBinder(form, prefix, labels);
  return (key: TextKey<F>) => ({
    ...text(key),
    value: String(form.values[key]) || null,
    onChange: (value: string | null) => form.set(key, value ?? ''),
  });
}

export function flagBinder<F>(
  form: { t: TFunction; values: F; set(key: FlagKey<F>, value: boolean): void },
  prefix: string,
  labels = 'fields',
) {
  return (key: FlagKey<F>) => ({
    label: form.t(`${labels}.${key}`),
    checked: form.values[key] === true,
    onChange: (e: { currentTarget: { checked: boolean } }) => form.set(key, e.currentTarget.checked),
    'data-testid': `${prefix}-${key}`,
  });
}
