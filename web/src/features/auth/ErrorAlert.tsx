// Shows a login-catalogue error (SPEC §8) translated, with the code kept as data for tests and support. A suspended
// account (ACCOUNT_IS_SUSPENDED[_TRUST]) may carry its open invoices (listed with a pay link) and, when a trust
// unlock is available, a "trust unlock" button (the page passes onTrustUnlock).
import { Alert, Button, Stack } from '@mantine/core';
import { IconAlertTriangle, IconLockOpen } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { i18n as i18next, loadLanguage, type Locale } from '../../i18n/index.ts';
import { failureInvoices } from './invoices.ts';
import type { LoginFailure } from './loginError.ts';

// with the invoice statuses' words (the billing namespace, not part of the sign-in pages' texts)
const SuspendedInvoices = lazy(() =>
  Promise.all([
    import('./SuspendedInvoices.tsx'),
    loadLanguage(i18next.language as Locale, ['billing']),
  ]).then(([m]) => ({ default: m.SuspendedInvoices })),
);

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
        {invoices.length > 0 && (
          <Suspense fallback={null}>
            <SuspendedInvoices invoices={invoices} />
          </Suspense>
        )}
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
