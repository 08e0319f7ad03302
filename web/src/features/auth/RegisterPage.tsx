// /register: self-registration (POST /api/users). Hidden and refused with REGISTRATION_DISABLED when the server
// setting `registration` is off.
import { Anchor, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useNavigate } from '../../components/navigation.ts';
import { api } from '../../api/http.ts';
import { useSession } from '../../stores/session.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';
import { useAuthSubmit } from './useAuthSubmit.ts';

const FIELDS = [
  ['name', 'register.name', TextInput, undefined],
  ['email', 'login.email', TextInput, 'username'],
  ['password', 'login.password', PasswordInput, 'new-password'],
  ['confirmPassword', 'register.confirm', PasswordInput, 'new-password'],
] as const;

export function RegisterPage() {
  const { t } = useTranslation('auth');
  const { busy, failure, setFailure, run, checks } = useAuthSubmit();
  const navigate = useNavigate();
  const server = useSession((s) => s.server);
  const [values, setValues] = useState({ name: '', email: '', password: '', confirmPassword: '' });
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);
  const enabled = !!server?.registration;

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!enabled) return setFailure({ code: 'REGISTRATION_DISABLED' });
    const c = await checks();
    if (!c) return;
    const errors = c.checkRegistration(values);
    setFieldErrors(errors);
    if (Object.keys(errors).length) return;
    await run(async () => {
      const { name, email, password } = values;
      await api.post('/users', { name: name.trim(), email: email.trim(), password, attributes: {} });
      setDone(true);
    });
  }

  return (
    <AuthLayout title={t('register.title')}>
      {!enabled ? (
        <>
          <ErrorAlert failure={{ code: 'REGISTRATION_DISABLED' }} />
          <Anchor component={Link} to="/login" size="sm">
            {t('login.backToLogin')}
          </Anchor>
        </>
      ) : done ? (
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
            {FIELDS.map(([k, label, Input, autoComplete]) => (
              <Input
                key={k}
                label={t(label)}
                value={values[k]}
                autoComplete={autoComplete}
                onChange={(e) => setValues({ ...values, [k]: e.currentTarget.value })}
                error={fieldErrors[k] && t(fieldErrors[k])}
              />
            ))}
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
