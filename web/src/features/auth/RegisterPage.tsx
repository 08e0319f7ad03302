// /register: self-registration (POST /api/users). Hidden and refused with REGISTRATION_DISABLED when the server
// setting `registration` is off.
import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useNavigate } from '../../components/navigation.ts';
import { api } from '../../api/http.ts';
import { useSession } from '../../stores/session.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';
import { loginFailure, type LoginFailure } from './loginError.ts';
import { loadChecks, preloadChecks } from './loadChecks.ts';

export function RegisterPage() {
  const { t } = useTranslation('auth');
  useEffect(preloadChecks, []);
  const navigate = useNavigate();
  const server = useSession((s) => s.server);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);
  const enabled = !!server?.registration;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!enabled) return setFailure({ code: 'REGISTRATION_DISABLED' });
    const checks = await loadChecks().catch(() => null);
    if (!checks) return setFailure({ code: 'CONNECTION_ERROR' });
    const errors = checks.checkRegistration({ name, email, password, confirm });
    setFieldErrors(errors);
    if (Object.keys(errors).length) return;
    setBusy(true);
    setFailure(null);
    try {
      await api.post('/users', { name: name.trim(), email: email.trim(), password, attributes: {} });
      setDone(true);
    } catch (err) {
      setFailure(loginFailure(err));
    } finally {
      setBusy(false);
    }
  }

  if (!enabled) {
    return (
      <AuthLayout title={t('register.title')}>
        <ErrorAlert failure={{ code: 'REGISTRATION_DISABLED' }} />
        <Anchor component={Link} to="/login" size="sm">
          {t('login.backToLogin')}
        </Anchor>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title={t('register.title')}>
      {done ? (
        <Stack>
          <Text role="status" data-testid="register-done">
            {t('register.done')}
          </Text>
          <Button onClick={() => navigate('/login')}>{t('login.submit')}</Button>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate data-testid="register-form">
          <Stack gap="sm">
            <ErrorAlert failure={failure} />
            <TextInput
              label={t('register.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={fieldErrors.name && t(fieldErrors.name)}
            />
            <TextInput
              label={t('login.email')}
              value={email}
              autoComplete="username"
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={fieldErrors.email && t(fieldErrors.email)}
            />
            <PasswordInput
              label={t('login.password')}
              value={password}
              autoComplete="new-password"
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={fieldErrors.password && t(fieldErrors.password)}
            />
            <PasswordInput
              label={t('register.confirm')}
              value={confirm}
              autoComplete="new-password"
              onChange={(e) => setConfirm(e.currentTarget.value)}
              error={fieldErrors.confirm && t(fieldErrors.confirm)}
            />
            <Button type="submit" loading={busy}>
              {t('register.submit')}
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
