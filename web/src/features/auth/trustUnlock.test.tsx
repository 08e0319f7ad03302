import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Switch } from 'wouter';
import type { Server } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders, text } from '../../components/testing.tsx';
import { usePrefs } from '../../stores/prefs.ts';
import { useSession } from '../../stores/session.ts';
import { LoginPage } from './LoginPage.tsx';

const user = { id: 5, name: 'Ana', email: 'ana@x.com', administrator: false, attributes: {} };
const suspended = {
  error: 'ACCOUNT_IS_SUSPENDED_TRUST',
  trustAvailable: true,
  invoices: [
    {
      id: 31,
      dueDate: '2026-11-10',
      value: 59.9,
      status: 'OVERDUE',
      invoiceUrl: 'https://pay.example.com/i/31',
    },
    { id: 32, dueDate: '2026-12-10', value: 59.9, status: 'PENDING', invoiceUrl: 'javascript:alert(1)' },
  ],
};

function setup(trustAnswer: () => Response) {
  let unlocked = false;
  const f = fakeFetch((url, init) => {
    if (url === '/rastro/billing/trust-unlock') {
      const r = trustAnswer();
      if (r.ok) unlocked = true;
      return r;
    }
    if (url.startsWith('/api/session')) {
      void init;
      return unlocked ? json(user) : json(suspended, 403);
    }
    if (url.includes('/assets/custom/config.json')) return json({});
    return text('', 404);
  });
  vi.stubGlobal('fetch', f.fn);
  renderWithProviders(
    <Switch>
      <Route path="/login">
        <LoginPage />
      </Route>
      <Route path="/home">
        <div>home page</div>
      </Route>
    </Switch>,
    { route: '/login' },
  );
  return f;
}

async function signIn() {
  fireEvent.change(screen.getByTestId('login-email'), { target: { value: ' ana@x.com ' } });
  fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'segredo' } });
  fireEvent.click(screen.getByTestId('login-submit'));
  return screen.findByTestId('login-error');
}

beforeEach(() => {
  localStorage.clear();
  usePrefs.getState().reload();
  useSession.setState({
    user: null,
    server: { registration: false, attributes: { currency: 'BRL' } } as unknown as Server,
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('suspended account on the login screen', () => {
  it('lists the open invoices (due date, value, status, pay link only for http links)', async () => {
    setup(() => json({ trustUntil: '2026-11-25T10:00:00.000Z' }));
    const alert = await signIn();
    expect(alert.dataset.code).toBe('ACCOUNT_IS_SUSPENDED_TRUST');
    const rows = await within(alert).findAllByTestId('login-invoice'); // the table is a lazy chunk
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('10/11/2026');
    expect(rows[0].textContent).toMatch(/R\$\s?59,90/);
    expect(rows[0].textContent).toContain('Vencida');
    expect(within(rows[0]).getByTestId('login-invoice-pay').getAttribute('href')).toBe(
      'https://pay.example.com/i/31',
    );
    expect(within(rows[1]).queryByTestId('login-invoice-pay')).toBeNull();
  });

  it('"Desbloqueio de confiança" posts the typed e-mail and password, then signs in', async () => {
    const f = setup(() => json({ trustUntil: '2026-11-25T10:00:00.000Z' }));
    const alert = await signIn();
    fireEvent.click(within(alert).getByText('Desbloqueio de confiança'));
    expect(await screen.findByText('home page')).toBeTruthy();
    const unlock = f.calls.find((c) => c.url === '/rastro/billing/trust-unlock')!;
    expect(unlock.init.method).toBe('POST');
    expect(JSON.parse(String(unlock.init.body))).toEqual({ email: 'ana@x.com', password: 'segredo' });
    expect(f.calls.filter((c) => c.url === '/api/session')).toHaveLength(2);
    expect(useSession.getState().user?.id).toBe(5);
  });

  it('a refused unlock shows the translated message with the server text and does not sign in', async () => {
    const f = setup(() => text('Trust unlock already used', 400));
    const alert = await signIn();
    fireEvent.click(within(alert).getByTestId('login-trust-unlock'));
    expect(
      await screen.findByText('Não foi possível fazer o desbloqueio de confiança: Trust unlock already used'),
    ).toBeTruthy();
    // one sign-in (POST), not retried; a live socket left by the test before may ask GET /api/session
    expect(f.calls.filter((c) => c.url === '/api/session' && c.init?.method === 'POST')).toHaveLength(1);
    expect(useSession.getState().user).toBeNull();
  });

  it('no button without trustAvailable or for a plain suspension', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch((url) =>
        url.startsWith('/api/session')
          ? json({ error: 'ACCOUNT_IS_SUSPENDED', trustAvailable: false, invoices: [] }, 403)
          : json({}),
      ).fn,
    );
    renderWithProviders(
      <Switch>
        <Route path="/login">
          <LoginPage />
        </Route>
      </Switch>,
      { route: '/login' },
    );
    const alert = await signIn();
    await waitFor(() => expect(alert.dataset.code).toBe('ACCOUNT_IS_SUSPENDED'));
    expect(within(alert).queryByTestId('login-trust-unlock')).toBeNull();
    expect(within(alert).queryByTestId('login-invoices')).toBeNull();
  });
});
