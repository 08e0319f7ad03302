// /login (SPEC §2, §5, §8): e-mail + password with remember me, token login, password recovery request,
// and a link to /register when the server allows registration. After login it lands on `to`. A suspended account
// with a trust unlock available (SPEC §4, §8) gets a button: POST /{ns}/billing/trust-unlock, then sign in.
import { Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'wouter';
import { useNavigate } from '../../components/navigation.ts';
import { api, ext, serverDetail } from '../../api/http.ts';
import { login, loginWithToken } from '../../shell/sessionActions.ts';
import { useSession } from '../../stores/session.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';
import { loginFailure, type LoginFailure } from './loginError.ts';
import { safeTo } from './safeTo.ts';
import { loadChecks, preloadChecks } from './loadChecks.ts';

type Mode = 'password' | 'token' | 'recover';

export function LoginPage() {
  const { t } = useTranslation('auth');
  useEffect(preloadChecks, []);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const server = useSession((s) => s.server);
  const to = safeTo(params.get('to'));
  const [mode, setMode] = useState<Mode>('password');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  const [info, setInfo] = useState<string | null>(null);
  const [trustBusy, setTrustBusy] = useState(false);
  const [trustError, setTrustError] = useState<string | null>(null);

  const switchMode = (m: Mode) => {
    setMode(m);
    setFailure(null);
    setInfo(null);
  };

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setTrustError(null);
    setFailure(null);
    setInfo(null);
    try {
      await action();
    } catch (err) {
      setFailure(loginFailure(err));
    } finally {
      setBusy(false);
    }
  }

  async function trustUnlock() {
    setTrustBusy(true);
    try {
      await ext.post('/billing/trust-unlock', { email: email.trim(), password });
    } catch (err) {
      console.warn('trust unlock refused', err);
      const detail = serverDetail(err);
      setFailure(null);
      setInfo(null);
      setTrustBusy(false);
      setTrustError(`${t('suspended.trustFailed')}${detail}`);
      return;
    }
    setTrustBusy(false);
    setTrustError(null);
    await run(async () => {
      await login(email.trim(), password, remember);
      navigate(to, { replace: true });
    });
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    // the form checks (and zod under them) are not part of the page's first paint (issue #13, weight); they are
    // fetched right after it, and a submit waits for them only if it comes first
    void loadChecks().then(
      ({ checkLogin, checkRecover, checkTokenLogin }) => {
        if (mode === 'password') {
          const code = checkLogin({ email, password });
          if (code) return setFailure({ code });
          void run(async () => {
            await login(email.trim(), password, remember);
            navigate(to, { replace: true });
          });
        } else if (mode === 'token') {
          const code = checkTokenLogin({ token });
          if (code) return setFailure({ code });
          void run(async () => {
            await loginWithToken(token.trim());
            navigate(to, { replace: true });
          });
        } else {
          const code = checkRecover({ email });
          if (code) return setFailure({ code });
          void run(async () => {
            await api.postForm('/password/reset', {
              email: email.trim(),
              requested_from: window.location.host,
            });
            setInfo(t('recover.sent'));
          });
        }
      },
      // the checks' chunk could not be fetched: the server is unreachable
      () => setFailure({ code: 'CONNECTION_ERROR' }),
    );
  }

  return (
    <AuthLayout title={mode === 'recover' ? t('recover.requestTitle') : t('login.title')}>
      <form onSubmit={submit} noValidate data-testid="login-form">
        <Stack gap="sm">
          <ErrorAlert
            failure={failure}
            onTrustUnlock={mode === 'password' ? () => void trustUnlock() : undefined}
            trustBusy={trustBusy}
          />
          {trustError && (
            <Text c="red" size="sm" role="alert" data-testid="login-trust-error">
              {trustError}
            </Text>
          )}
          {info && (
            <Text c="teal" size="sm" role="status" data-testid="login-info">
              {info}
            </Text>
          )}
          {mode !== 'token' && (
            <TextInput
              label={t('login.email')}
              name="email"
              autoComplete="username"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              data-testid="login-email"
            />
          )}
          {mode === 'password' && (
            <>
              <PasswordInput
                label={t('login.password')}
                name="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                data-testid="login-password"
              />
              <Checkbox
                label={t('login.remember')}
                checked={remember}
                onChange={(e) => setRemember(e.currentTarget.checked)}
                data-testid="login-remember"
              />
            </>
          )}
          {mode === 'token' && (
            <TextInput
              label={t('login.token')}
              name="token"
              value={token}
              onChange={(e) => setToken(e.currentTarget.value)}
              data-testid="login-token"
            />
          )}
          <Button type="submit" loading={busy} fullWidth data-testid="login-submit">
            {mode === 'recover' ? t('recover.send') : t('login.submit')}
          </Button>
          <Group justify="space-between" gap="xs">
            {mode !== 'recover' ? (
              <Anchor component="button" type="button" size="sm" onClick={() => switchMode('recover')}>
                {t('login.forgot')}
              </Anchor>
            ) : (
              <Anchor component="button" type="button" size="sm" onClick={() => switchMode('password')}>
                {t('login.backToLogin')}
              </Anchor>
            )}
            {mode === 'password' && (
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => switchMode('token')}
                data-testid="login-token-mode"
              >
                {t('login.withToken')}
              </Anchor>
            )}
            {mode === 'token' && (
              <Anchor component="button" type="button" size="sm" onClick={() => switchMode('password')}>
                {t('login.withPassword')}
              </Anchor>
            )}
          </Group>
          {server?.registration && (
            <Text size="sm" ta="center">
              {t('login.noAccount')}{' '}
              <Anchor component={Link} to="/register" data-testid="register-link">
                {t('login.register')}
              </Anchor>
            </Text>
          )}
        </Stack>
      </form>
    </AuthLayout>
  );
}
