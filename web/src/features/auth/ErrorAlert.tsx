// Shows a login-catalogue error (SPEC §8) translated, with the code kept as data for tests and support. A suspended
// account (ACCOUNT_IS_SUSPENDED[_TRUST]) may carry its open invoices (listed with a pay link) and, when a trust
// unlock is available, a "trust unlock" button (the page passes onTrustUnlock).
import { Alert, Anchor, Button, Stack, Table } from '@mantine/core';
import { IconAlertTriangle, IconLockOpen } from '@tabler/icons-react';
import { formatCurrency } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../stores/session.ts';
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
  let value: number | null | undefined = undefined;
  if (o.value === null) value = null;
  else if (o.value !== undefined) {
    value =
      typeof o.value === 'number'
        ? o.value
        : typeof o.value === 'string' && o.value.trim()
          ? Number(o.value)
          : NaN;
    if (!Number.isFinite(value)) return null;
  }
  return { id: o.id, dueDate, value, status, invoiceUrl };
}

/** The well-formed invoices of a failure (others are dropped). */
export function failureInvoices(failure: LoginFailure | null): LoginInvoice[] {
  const list = Array.isArray(failure?.invoices) ? failure.invoices : [];
  return list.flatMap((i) => {
    const invoice = toInvoice(i);
    return invoice ? [invoice] : [];
  });
}

const safeUrl = (u: string | null | undefined) => (u && /^https?:\/\//i.test(u) ? u : null);

function SuspendedInvoices({ invoices }: { invoices: LoginInvoice[] }) {
  const { t, i18n } = useTranslation(['auth', 'billing']);
  const currency = useSession((s) => s.server?.attributes?.currency);
  const code = typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : undefined;
  const day = (d: string | null | undefined) => {
    if (!d) return '';
    const date = new Date(`${d.slice(0, 10)}T12:00:00Z`);
    return Number.isNaN(date.getTime()) ? d : date.toLocaleDateString(i18n.language, { timeZone: 'UTC' });
  };
  return (
    <Table fz="xs" mt="xs" withTableBorder data-testid="login-invoices">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('auth:suspended.dueDate')}</Table.Th>
          <Table.Th ta="right">{t('auth:suspended.value')}</Table.Th>
          <Table.Th>{t('auth:suspended.status')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {invoices.map((inv) => {
          const url = safeUrl(inv.invoiceUrl);
          const statusKey = `billing:status.${inv.status ?? ''}`;
          return (
            <Table.Tr key={String(inv.id)} data-testid="login-invoice">
              <Table.Td>{day(inv.dueDate)}</Table.Td>
              <Table.Td ta="right">
                {typeof inv.value === 'number' ? formatCurrency(inv.value, i18n.language, code) : ''}
              </Table.Td>
              <Table.Td>{inv.status && i18n.exists(statusKey) ? t(statusKey) : (inv.status ?? '')}</Table.Td>
              <Table.Td>
                {url && (
                  <Anchor
                    href={url}
                    target="_blank"
                    rel="noopener noreferrer"
                    data-testid="login-invoice-pay"
                  >
                    {t('auth:suspended.pay')}
                  </Anchor>
                )}
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

export interface ErrorAlertProps {
  failure: LoginFailure | null;
  /** Offered when the failure is ACCOUNT_IS_SUSPENDED_TRUST with trustAvailable. */
  onTrustUnlock?: () => void;
  trustBusy?: boolean;
}

export function ErrorAlert({ failure, onTrustUnlock, trustBusy = false }: ErrorAlertProps) {
  const { t, i18n } = useTranslation('common');
  const { t: ta } = useTranslation('auth');
  if (!failure) return null;
  // A server code outside the catalogue (e.g. 'User is disabled' ⇒ USER_IS_DISABLED) is shown in its own words
  // when a translation exists, else as the catalogue's UNKNOWN_ERROR.
  const rawKey = failure.raw ? `loginErrors.${failure.raw}` : null;
  const key = rawKey && i18n.exists(rawKey, { ns: 'common' }) ? rawKey : `loginErrors.${failure.code}`;
  const text = i18n.exists(key, { ns: 'common' }) ? t(key) : t('loginErrors.UNKNOWN_ERROR');
  const invoices = failureInvoices(failure);
  const canTrust =
    failure.code === 'ACCOUNT_IS_SUSPENDED_TRUST' && !!failure.trustAvailable && !!onTrustUnlock;
  return (
    <Alert
      color={failure.code === 'NEW_VERSION_AVAILABLE' ? 'blue' : 'red'}
      icon={<IconAlertTriangle size={18} />}
      role="alert"
      data-testid="login-error"
      data-code={failure.code}
      data-raw={failure.raw}
    >
      <Stack gap={4}>
        <div>{text}</div>
        {failure.trustAvailable && <div>{t('loginErrors.trustAvailable')}</div>}
        {invoices.length > 0 && <SuspendedInvoices invoices={invoices} />}
        {canTrust && (
          <Button
            size="xs"
            mt="xs"
            color="yellow"
            leftSection={<IconLockOpen size={14} />}
            loading={trustBusy}
            onClick={onTrustUnlock}
            data-testid="login-trust-unlock"
          >
            {ta('suspended.trustUnlock')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
