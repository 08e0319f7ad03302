import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Switch } from 'wouter';
import { defaultMessages, type Server } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders, text } from '../../components/testing.tsx';
import { usePrefs } from '../../stores/prefs.ts';
import { useSession } from '../../stores/session.ts';
import { LoginPage } from './LoginPage.tsx';
import { RegisterPage } from './RegisterPage.tsx';

const user = { id: 5, name: 'Ana', email: 'ana@x', administrator: false, attributes: {} };

function setup(sessionAnswer: () => Response | Promise<Response>, route = '/login?to=%2Freports%2Fstops') {
  const f = fakeFetch((url) => {
    if (url.startsWith('/api/session/token')) return text('long-lived-token');
    if (url.startsWith('/api/session')) return sessionAnswer();
    if (url.includes('/assets/custom/config.json')) return json({});
    return text('', 404);
  });
  vi.stubGlobal('fetch', f.fn);
  renderWithProviders(
    <Switch>
      <Route path="/login">
        <LoginPage />
      </Route>
      <Route path="/reports/stops">
        <div>stops page</div>
      </Route>
    </Switch>,
    { route },
  );
  return f;
}

async function submit(email = 'ana@x', password = 'pw') {
  fireEvent.change(screen.getByTestId('login-email'), { target: { value: email } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: password } });
  fireEvent.click(screen.getByTestId('login-submit'));
}

beforeEach(() => {
  localStorage.clear();
  usePrefs.getState().reload();
  useSession.setState({ user: null, server: { registration: false, attributes: {} } as unknown as Server });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('LoginPage error catalogue (SPEC §8)', () => {
  const cases: [string, () => Response | Promise<Response>, string, string][] = [
    ['401', () => text('', 401), 'HTTP_401_UNAUTHORIZED', 'Combinação de usuário e senha inválida'],
    ['500', () => text('Internal server error', 500), 'ACCOUNT_IS_BLOCKED', 'Conta bloqueada'],
    [
      'code before " - "',
      () => text('Account is suspended - contact support', 400),
      'ACCOUNT_IS_SUSPENDED',
      'Conta suspensa por falta de pagamento',
    ],
    [
      'disabled user',
      () => text('SecurityException: User is disabled', 400),
      'UNKNOWN_ERROR',
      'Conta desativada',
    ],
    [
      'catalogue code in a JSON error field',
      () => json({ error: 'ACCOUNT_IS_SUSPENDED_TRUST', trustAvailable: true }, 400),
      'ACCOUNT_IS_SUSPENDED_TRUST',
      'desbloqueio de confiança',
    ],
    ['unknown text', () => text('Something odd', 400), 'UNKNOWN_ERROR', 'Erro desconhecido'],
    [
      'no answer',
      () => Promise.reject(new TypeError('Failed to fetch')),
      'CONNECTION_ERROR',
      'Não foi possível conectar',
    ],
  ];
  for (const [name, answer, code, message] of cases) {
    it(`${name} ⇒ ${code}`, async () => {
      setup(answer);
      await submit();
      const alert = await screen.findByTestId('login-error');
      expect(alert.getAttribute('data-code')).toBe(code);
      expect(alert.textContent).toContain(message);
    });
  }

  it('empty fields ⇒ FILL_ALL_FIELDS without calling the server', async () => {
    const f = setup(() => json(user));
    await submit('', '');
    const alert = await screen.findByTestId('login-error');
    expect(alert.getAttribute('data-code')).toBe('FILL_ALL_FIELDS');
    expect(f.calls.filter((c) => c.url.startsWith('/api/session'))).toHaveLength(0);
  });

  it('recover request with an empty e-mail ⇒ FILL_EMAIL_FIELD; token login empty ⇒ FILL_ALL_FIELDS', async () => {
    setup(() => json(user));
    fireEvent.click(screen.getByText('Esqueci minha senha'));
    fireEvent.click(screen.getByTestId('login-submit'));
    expect((await screen.findByTestId('login-error')).getAttribute('data-code')).toBe('FILL_EMAIL_FIELD');
    fireEvent.click(screen.getByText('Voltar ao login'));
    fireEvent.click(screen.getByTestId('login-token-mode'));
    fireEvent.click(screen.getByTestId('login-submit'));
    expect((await screen.findByTestId('login-error')).getAttribute('data-code')).toBe('FILL_ALL_FIELDS');
  });
});

describe('LoginPage success', () => {
  it('posts the form, keeps a token (never the password) with remember me, and lands on `to`', async () => {
    const f = setup(() => json(user));
    fireEvent.click(screen.getByTestId('login-remember'));
    await submit('ana@x', 's3cret');
    await screen.findByText('stops page');
    const login = f.calls.find((c) => c.url === '/api/session')!;
    expect(login.init.method).toBe('POST');
    expect((login.init.body as URLSearchParams).toString()).toBe('email=ana%40x&password=s3cret');
    expect(f.calls.some((c) => c.url === '/api/session/token' && c.init.method === 'POST')).toBe(true);
    expect(localStorage.getItem('rememberme')).toBe('long-lived-token');
    expect(JSON.stringify({ ...localStorage })).not.toContain('s3cret');
    expect(useSession.getState().user?.id).toBe(5);
  });

  it('without remember me no token is requested and any old one is dropped', async () => {
    localStorage.setItem('rememberme', 'old');
    usePrefs.getState().reload();
    const f = setup(() => json(user));
    await submit();
    await screen.findByText('stops page');
    expect(f.calls.some((c) => c.url.startsWith('/api/session/token'))).toBe(false);
    expect(localStorage.getItem('rememberme')).toBeNull();
  });

  it('hides the register link when registration is off and shows it when on', async () => {
    setup(() => json(user));
    expect(screen.queryByTestId('register-link')).toBeNull();
    cleanup();
    useSession.setState({ server: { registration: true, attributes: {} } as unknown as Server });
    setup(() => json(user));
    expect(screen.getByTestId('register-link')).toBeTruthy();
  });
});

describe('RegisterPage', () => {
  it('refuses with REGISTRATION_DISABLED when server.registration is false', async () => {
    vi.stubGlobal('fetch', fakeFetch(() => json({})).fn);
    renderWithProviders(
      <Switch>
        <Route path="/register">
          <RegisterPage />
        </Route>
      </Switch>,
      { route: '/register' },
    );
    const alert = await screen.findByTestId('login-error');
    expect(alert.getAttribute('data-code')).toBe('REGISTRATION_DISABLED');
    expect(alert.textContent).toContain('A criação de novos usuários está temporariamente bloqueada');
    expect(screen.queryByTestId('register-form')).toBeNull();
  });

  it('validates the user form rules before posting', async () => {
    useSession.setState({ server: { registration: true, attributes: {} } as unknown as Server });
    const f = fakeFetch(() => json({}));
    vi.stubGlobal('fetch', f.fn);
    renderWithProviders(
      <Switch>
        <Route path="/register">
          <RegisterPage />
        </Route>
      </Switch>,
      { route: '/register' },
    );
    fireEvent.change(screen.getByLabelText('Nome e sobrenome'), { target: { value: 'Al' } });
    fireEvent.submit(screen.getByTestId('register-form'));
    const pt = defaultMessages['pt-BR'];
    await waitFor(() => expect(screen.getByText(pt['validation.nameMinLength'])).toBeTruthy());
    expect(screen.getByText(pt['validation.emailRequired'])).toBeTruthy();
    expect(screen.getByText(pt['validation.passwordRequired'])).toBeTruthy();
    expect(f.calls.some((c) => c.url === '/api/users')).toBe(false);
  });
});
