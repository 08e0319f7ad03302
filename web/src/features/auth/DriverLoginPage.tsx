// /motorista: driver sign-in; after login it goes to `to` (default the driver view /qr-driver).
import { Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import { useNavigate } from '../../components/navigation.ts';
import { DRIVER_VIEW_KEY, login } from '../../shell/sessionActions.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';
import { safeTo } from './safeTo.ts';
import { useAuthSubmit } from './useAuthSubmit.ts';

export function DriverLoginPage() {
  const { t } = useTranslation('auth');
  const { busy, failure, setFailure, run, checks } = useAuthSubmit();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const to = safeTo(params.get('to'), '/qr-driver');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');

  async function submit(e: FormEvent) {
    e.preventDefault();
    const c = await checks();
    if (!c) return;
    const code = c.checkLogin({ email, password });
    if (code) return setFailure({ code });
    await run(async () => {
      await login(email.trim(), password, false);
      try {
        sessionStorage.setItem(DRIVER_VIEW_KEY, '1');
      } catch {
        /* storage unavailable */
      }
      navigate(to, { replace: true });
    });
  }

  return (
    <AuthLayout title={t('driver.title')}>
      <form onSubmit={submit} noValidate data-testid="driver-login-form">
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('driver.description')}
          </Text>
          <ErrorAlert failure={failure} />
          <TextInput
            label={t('driver.username')}
            autoComplete="username"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            data-testid="login-email"
          />
          <PasswordInput
            label={t('login.password')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            data-testid="login-password"
          />
          <Button type="submit" loading={busy} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
