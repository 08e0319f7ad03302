// /login/recover/{token}: set a new password with the e-mailed token (POST /api/password/update).
import { Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { api } from '../../api/http.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';
import { useAuthSubmit } from './useAuthSubmit.ts';

export function RecoverPage() {
  const { t } = useTranslation('auth');
  const { busy, failure, setFailure, run, checks } = useAuthSubmit();
  const { token = '' } = useParams();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const c = await checks();
    if (!c) return;
    const code = c.checkNewPassword({ token });
    if (code) return setFailure({ code });
    if (password.length < 4) return setFieldError('validation.passwordMinLength');
    if (password !== confirm) return setFieldError('validation.passwordMismatch');
    setFieldError(null);
    await run(async () => {
      await api.postForm('/password/update', { token, password });
      setDone(true);
    });
  }

  return (
    <AuthLayout title={t('recover.title')}>
      {done ? (
        <Stack>
          <Text role="status" data-testid="recover-done">
            {t('recover.done')}
          </Text>
          <Anchor component={Link} to="/login">
            {t('login.backToLogin')}
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="sm">
            <ErrorAlert failure={failure} />
            <PasswordInput
              label={t('recover.newPassword')}
              value={password}
              autoComplete="new-password"
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={fieldError && fieldError !== 'validation.passwordMismatch' ? t(fieldError) : undefined}
            />
            <PasswordInput
              label={t('register.confirm')}
              value={confirm}
              autoComplete="new-password"
              onChange={(e) => setConfirm(e.currentTarget.value)}
              error={fieldError === 'validation.passwordMismatch' ? t(fieldError) : undefined}
            />
            <Button type="submit" loading={busy}>
              {t('recover.save')}
            </Button>
            <Anchor component={Link} to="/login" size="sm">
              {t('login.backToLogin')}
            </Anchor>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
