// /login (SPEC §2, §5, §8): e-mail + password with remember me, token login, password recovery request,
// and a link to /register when the server allows registration. After login it lands on `to`. A suspended account
// with a trust unlock available (SPEC §4, §8) gets a button: POST /{ns}/billing/trust-unlock, then sign in.
// /motorista (DriverLoginPage): the driver's sign-in, e-mail and password only; it marks the session a driver view
// and lands on `to` (default the driver view /qr-driver).
import { Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'wouter';
import { useNavigate } from '../../components/navigation.ts';
import { api, ext, serverDetail } from '../../api/http.ts';
import { DRIVER_VIEW_KEY, login, loginWithToken } from '../../shell/sessionActions.ts';
import { useSession } from '../../stores/session.ts';
import { AuthLayout } from './AuthLayout.tsx';
import { ErrorAlert } from './ErrorAlert.tsx';
import { safeTo } from './safeTo.ts';
import { useAuthSubmit } from './useAuthSubmit.ts';
import './login.css';

type Mode = 'password' | 'token' | 'recover';

/** The links under the button of each mode: the mode each one switches to, its text and test id. */
const SWITCHES: Record<Mode, Array<[Mode, string, string?]>> = {
  password: [
    ['recover', 'login.forgot'],
    ['token', 'login.withToken', 'login-token-mode'],
  ],
  token: [
    ['recover', 'login.forgot'],
    ['password', 'login.withPassword'],
  ],
  recover: [['password', 'login.backToLogin']],
};

/**
 * The sign-in button's busy mark: Mantine's ring, still. Spinning, it made the compositor draw a frame every 12–50 ms
 * while the session was checked and the fleet loaded, each a swap in the GPU process (on SwiftShader about a core
 * meanwhile) that the map's first frame then waited behind (issue #31, session 30). The button is disabled and
 * aria-busy meanwhile; since session 44 its busy state also comes without Mantine's transitions and blur
 * (`login.css`, `rastro-still-busy`).
 */
const STILL_RING = {
  children: (
    <span
      style={{
        display: 'block',
        width: 'var(--loader-size)',
        height: 'var(--loader-size)',
        boxSizing: 'border-box',
        borderRadius: '50%',
        border: 'calc(var(--loader-size) / 8) solid var(--loader-color)',
        borderLeftColor: 'transparent',
      }}
    />
  ),
};

export const DriverLoginPage = () => <LoginPage driver />;

export function LoginPage({ driver = false }: { driver?: boolean }) {
  const { t } = useTranslation('auth');
  const auth = useAuthSubmit();
  const { busy, failure, setFailure } = auth;
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const server = useSession((s) => s.server);
  const to = safeTo(params.get('to'), driver ? '/qr-driver' : undefined);
  const [mode, setMode] = useState<Mode>('password');
  const [v, setV] = useState({ email: '', password: '', token: '', remember: false });
  /** The props of a text field: its value, change, name and test id `login-<key>`. */
  const bind = (k: 'email' | 'password' | 'token') => ({
    name: k,
    value: v[k],
    onChange: (e: ChangeEvent<HTMLInputElement>) => setV({ ...v, [k]: e.currentTarget.value }),
    'data-testid': `login-${k}`,
  });
  // under the error: the recovery request's "sent" (info) or the trust unlock's refusal (error)
  const [note, setNote] = useState<{ text: string; error?: boolean } | null>(null);
  const [trustBusy, setTrustBusy] = useState(false);
  const email = v.email.trim();

  const switchMode = (m: Mode) => {
    setMode(m);
    setFailure(null);
    setNote(null);
  };

  const run = (action: () => Promise<void>) => {
    setNote(null);
    return auth.run(action);
  };
  const signIn = async () => {
    await login(email, v.password, v.remember);
    try {
      if (driver) sessionStorage.setItem(DRIVER_VIEW_KEY, '1');
    } catch {
      /* storage unavailable */
    }
    navigate(to, { replace: true });
  };

  async function trustUnlock() {
    setTrustBusy(true);
    try {
      await ext.post('/billing/trust-unlock', { email, password: v.password });
    } catch (err) {
      console.warn('trust unlock refused', err);
      setFailure(null);
      setNote({ text: `${t('suspended.trustFailed')}${serverDetail(err)}`, error: true });
      return;
    } finally {
      setTrustBusy(false);
    }
    await run(signIn);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const c = await auth.checks();
    if (!c) return;
    const code = c.checkCode(mode, { email: v.email, password: v.password, token: v.token });
    if (code) return setFailure({ code });
    if (mode === 'password') await run(signIn);
    else if (mode === 'token')
      await run(async () => {
        await loginWithToken(v.token.trim());
        navigate(to, { replace: true });
      });
    else
      await run(async () => {
        await api.postForm('/password/reset', { email, requested_from: window.location.host });
        setNote({ text: t('recover.sent') });
      });
  }

  return (
    <AuthLayout
      title={driver ? t('driver.title') : mode === 'recover' ? t('recover.requestTitle') : t('login.title')}
    >
      <form onSubmit={submit} noValidate data-testid={driver ? 'driver-login-form' : 'login-form'}>
        <Stack gap="sm">
          {driver && (
            <Text size="sm" c="dimmed">
              {t('driver.description')}
            </Text>
          )}
          <ErrorAlert
            failure={failure}
            onTrustUnlock={mode === 'password' && !driver ? () => void trustUnlock() : undefined}
            trustBusy={trustBusy}
          />
          {note && (
            <Text
              c={note.error ? 'red' : 'teal'}
              size="sm"
              role={note.error ? 'alert' : 'status'}
              data-testid={note.error ? 'login-trust-error' : 'login-info'}
            >
              {note.text}
            </Text>
          )}
          {mode !== 'token' && (
            <TextInput
              label={t(driver ? 'driver.username' : 'login.email')}
              autoComplete="username"
              {...bind('email')}
            />
          )}
          {mode === 'password' && (
            <PasswordInput
              label={t('login.password')}
              autoComplete="current-password"
              {...bind('password')}
            />
          )}
          {mode === 'password' && !driver && (
            <Checkbox
              label={t('login.remember')}
              checked={v.remember}
              onChange={(e) => setV({ ...v, remember: e.currentTarget.checked })}
              data-testid="login-remember"
            />
          )}
          {mode === 'token' && <TextInput label={t('login.token')} {...bind('token')} />}
          <Button
            type="submit"
            loading={busy}
            loaderProps={STILL_RING}
            className="rastro-still-busy"
            aria-busy={busy}
            fullWidth
            data-testid="login-submit"
          >
            {mode === 'recover' ? t('recover.send') : t('login.submit')}
          </Button>
          {!driver && (
            <Group justify="space-between" gap="xs">
              {SWITCHES[mode].map(([next, label, testId]) => (
                <Anchor
                  key={next}
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => switchMode(next)}
                  data-testid={testId}
                >
                  {t(label)}
                </Anchor>
              ))}
            </Group>
          )}
          {server?.registration && !driver && (
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
