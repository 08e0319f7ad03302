// The open invoices a suspended account's login failure may carry (ACCOUNT_IS_SUSPENDED[_TRUST]), read with plain
// checks (no zod on the sign-in pages).
import type { LoginFailure } from './loginError.ts';

export interface LoginInvoice {
  id: number | string;
  dueDate?: string | null;
  value?: number | null;
  status?: string | null;
  invoiceUrl?: string | null;
}

const optionalText = (v: unknown): string | null | undefined | false =>
  v === null || v === undefined ? v : typeof v === 'string' ? v : false;

/** One invoice of the server's answer, or null when it is not well-formed (plain checks: no zod on this page). */
function toInvoice(raw: unknown): LoginInvoice | null {
  if (!raw || typeof raw !== 'object') return null;
  const o = raw as Record<string, unknown>;
  if (typeof o.id !== 'number' && typeof o.id !== 'string') return null;
  const dueDate = optionalText(o.dueDate);
  const status = optionalText(o.status);
  const invoiceUrl = optionalText(o.invoiceUrl);
  if (dueDate === false || status === false || invoiceUrl === false) return null;
  const value =
    o.value === null || o.value === undefined
      ? o.value
      : typeof o.value === 'number' || (typeof o.value === 'string' && o.value.trim())
        ? Number(o.value)
        : NaN;
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return { id: o.id, dueDate, value, status, invoiceUrl };
}

/** The well-formed invoices of a failure (others are dropped). */
export function failureInvoices(failure: LoginFailure | null): LoginInvoice[] {
  return (failure?.invoices ?? []).flatMap((i) => {
    const invoice = toInvoice(i);
    return invoice ? [invoice] : [];
  });
}
