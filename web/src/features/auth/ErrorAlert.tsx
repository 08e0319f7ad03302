// Shows a login-catalogue error (SPEC §8) translated, with the code kept as data for tests and support.
import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { LoginFailure } from './loginError.ts';

export function ErrorAlert({ failure }: { failure: LoginFailure | null }) {
  const { t, i18n } = useTranslation('common');
  if (!failure) return null;
  // A server code outside the catalogue (e.g. 'User is disabled' ⇒ USER_IS_DISABLED) is shown in its own words
  // when a translation exists, else as the catalogue's UNKNOWN_ERROR.
  const rawKey = failure.raw ? `loginErrors.${failure.raw}` : null;
  const key = rawKey && i18n.exists(rawKey, { ns: 'common' }) ? rawKey : `loginErrors.${failure.code}`;
  const text = i18n.exists(key, { ns: 'common' }) ? t(key) : t('loginErrors.UNKNOWN_ERROR');
  return (
    <Alert
      color={failure.code === 'NEW_VERSION_AVAILABLE' ? 'blue' : 'red'}
      icon={<IconAlertTriangle size={18} />}
      role="alert"
      data-testid="login-error"
      data-code={failure.code}
      data-raw={failure.raw}
    >
      {text}
      {failure.trustAvailable && <div>{t('loginErrors.trustAvailable')}</div>}
    </Alert>
  );
}
