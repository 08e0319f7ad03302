// How billing writes its dates and amounts (the invoice dialogs, and a suspended account's invoices at sign-in):
// a YYYY-MM-DD day in the language's short form, and a value in the server's currency (attribute `currency`, an
// ISO code; otherwise the language's own).
import { formatCurrency } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { useSession } from '../stores/session.ts';

/** A YYYY-MM-DD date in the language's short form (the date itself, no time zone shift). */
export function formatDay(day: string | null | undefined, locale: string): string {
  if (!day) return '';
  const d = new Date(`${day.slice(0, 10)}T12:00:00Z`);
  return Number.isNaN(d.getTime()) ? day : d.toLocaleDateString(locale, { timeZone: 'UTC' });
}

export function useMoney(): (value: number) => string {
  const { i18n } = useTranslation();
  const currency = useSession((s) => s.server?.attributes?.currency);
  const code = typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : undefined;
  return (value) => formatCurrency(value, i18n.language, code);
}
