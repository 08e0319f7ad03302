// Small zod builders the form schemas share (validation.ts, deviceFormSchema.ts): optional text, number, date,
// colour and id fields whose messages are i18n keys of messages.ts; an empty field means "not given".
import { z } from 'zod';
import type { MessageKey } from './messages.ts';

export const K = <T extends MessageKey>(k: T): T => k;

export const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
export const optText = (max = 255) =>
  z.preprocess(emptyToUndefined, z.string().trim().max(max, K('validation.tooLong')).optional());
export const optNumber = () =>
  z.preprocess(
    (v) => {
      const e = emptyToUndefined(v);
      if (typeof e === 'string') return Number(e.replace(',', '.'));
      return e;
    },
    z
      .number({ error: K('validation.invalidNumber') })
      .refine((n) => Number.isFinite(n), K('validation.invalidNumber'))
      .refine((n) => n >= 0, K('validation.notNegative'))
      .optional(),
  );
export const optDate = () =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        (s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)),
        K('validation.invalidDate'),
      )
      .optional(),
  );
export const optColor = () =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/, K('validation.invalidColor'))
      .optional(),
  );
export const optId = () =>
  z.preprocess(
    (v) => (v === '' || v === null || v === undefined ? 0 : typeof v === 'string' ? Number(v) : v),
    z
      .number({ error: K('validation.invalidNumber') })
      .int(K('validation.invalidNumber'))
      .min(0, K('validation.invalidNumber')),
  );
