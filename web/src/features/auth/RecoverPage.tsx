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
  const [values, setValues] = useState({ password: '', confirm: '' });
  // the password's rule on its field, a mismatch on the confirmation
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const c = await checks();
    if (!c) return;
    const code = c.checkCode('newPassword', { token });
    if (code) return setFailure({ code });
    const { password, confirm } = values;
    if (password.length < 4) return setFieldErrors({ password: 'validation.passwordMinLength' });
    if (password !== confirm) return setFieldErrors({ confirm: 'validation.passwordMismatch' });
    setFieldErrors({});
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
            {(['password', 'confirm'] as const).map((k) => (
              <PasswordInput
                key={k}
                label={t(k === 'password' ? 'recover.newPassword' : 'register.confirm')}
                value={values[k]}
                autoComplete="new-password"
                onChange={(e) => setValues({ ...values, [k]: e.currentTarget.value })}
                error={fieldErrors[k] && t(fieldErrors[k])}
              />
            ))}
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
