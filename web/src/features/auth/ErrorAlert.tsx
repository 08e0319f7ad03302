// Shows a login-catalogue error (SPEC §8) translated, with the code kept as data for tests and support.
import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { LoginFailure } from './loginError.ts';

export function ErrorAlert({ failure }: { failure: LoginFailure | null }) {
  const { t, i18n } = useTranslation('common');
  if (!failure) return null;
  const key = `loginErrors.${failure.code}`;
  const text = i18n.exists(key, { ns: 'common' }) ? t(key) : t('loginErrors.UNKNOWN_ERROR');
  return (
    <Alert
      color={failure.code === 'NEW_VERSION_AVAILABLE' ? 'blue' : 'red'}
      icon={<IconAlertTriangle size={18} />}
      role="alert"
      data-testid="login-error"
      data-code={failure.code}
    >
      {text}
      {failure.trustAvailable && <div>{t('loginErrors.trustAvailable')}</div>}
    </Alert>
  );
}
