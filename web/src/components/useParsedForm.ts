// A dialog's form that is checked by a domain parse function before it is saved (issue #33): the values, their
// field errors (translation keys), the busy flag and submit — parse, show the errors or save, then a green
// "saved" and close, or a red message. The computed attribute and notification rule dialogs hold only the rest.
import { notifications } from '@mantine/notifications';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Parsed } from './useCatalogue.ts';

export interface ParsedFormOptions<F, P> {
  /** i18n namespace holding `saved` and the field error keys (looked up in order when several). */
  ns: string | string[];
  /** The key of the green message when it is not `saved`. */
  saved?: string;
  initial: F;
  parse(form: F): Parsed<P>;
  /** Saves what parse returned (throws on a refusal). */
  save(value: P): Promise<void>;
  /** The red message of a save failure. */
  failure(err: unknown, t: TFunction): string;
  /** Named in the console warning of a failure. */
  what: string;
  onClose(): void;
}

export function useParsedForm<F, P>(options: ParsedFormOptions<F, P>) {
  const { t } = useTranslation(options.ns);
  const [form, setForm] = useState(options.initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const r = options.parse(form);
    if (!r.ok) {
      setErrors(r.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await options.save(r.value);
      notifications.show({ color: 'green', message: t(options.saved ?? 'saved') });
      options.onClose();
    } catch (e) {
      console.warn(`${options.what} not saved`, e);
      notifications.show({ color: 'red', message: options.failure(e, t) });
    } finally {
      setBusy(false);
    }
  };

  return {
    t,
    form,
    setForm,
    errors,
    setErrors,
    err: (key: string) => (errors[key] ? t(errors[key]) : undefined),
    busy,
    submit,
  };
}
