import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Server, User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders, text } from '../../components/testing.tsx';
import { setLocale } from '../../i18n/index.ts';
import { useSession } from '../../stores/session.ts';
import { UserEditDialog } from './UserEditDialog.tsx';
import { UsersPage } from './UsersPage.tsx';

const baseUser: User = {
  id: 7,
  attributes: { keep: 'me' },
  name: 'Ana Souza',
  login: null,
  email: 'ana@example.com',
  phone: null,
  readonly: false,
  administrator: false,
  map: null,
  latitude: 0,
  longitude: 0,
  zoom: 0,
  coordinateFormat: null,
  disabled: false,
  expirationTime: null,
  deviceLimit: -1,
  userLimit: 0,
  deviceReadonly: false,
  limitCommands: false,
  disableReports: false,
  fixedEmail: false,
  poiLayer: null,
  totpKey: null,
  temporary: false,
  password: null,
};
const admin = { ...baseUser, id: 1, name: 'Admin', email: 'admin', administrator: true, attributes: {} };
const manager = { ...baseUser, id: 5, name: 'Gerente', email: 'g@x.com', userLimit: 10, attributes: {} };
const serverWith = (billing: boolean) =>
  ({ id: 1, attributes: { 'rastro.enableBilling': billing }, readonly: false }) as unknown as Server;

let stored: Record<number, User>;
const writes: { method: string; url: string; body: unknown }[] = [];

beforeEach(() => {
  stored = { 7: structuredClone(baseUser) };
  writes.length = 0;
  useSession.getState().setServer(serverWith(true), { licensemode: null, devicelimit: null });
  vi.stubGlobal(
    'fetch',
    fakeFetch((url, init) => {
      const method = init.method ?? 'GET';
      const s = /^\/rastro\/users\/(\d+)\/(suspend|reactivate)$/.exec(url);
      if (s && method === 'POST') {
        writes.push({ method, url, body: null });
        const u = stored[Number(s[1])];
        u.attributes = { ...u.attributes, 'rastro.suspended': s[2] === 'suspend' };
        if (s[2] === 'reactivate') delete u.attributes['rastro.suspended'];
        return new Response(null, { status: 204 });
      }
      const m = /^\/api\/users(?:\/(\d+))?$/.exec(url);
      if (!m) return text('not found', 404);
      if (method === 'GET') return m[1] ? json(stored[Number(m[1])]) : json(Object.values(stored));
      const body = JSON.parse(String(init.body)) as User;
      writes.push({ method, url, body });
      stored[body.id] = body;
      return json(body);
    }).fn,
  );
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await setLocale('pt-BR');
});

describe('UserEditDialog billing tab', () => {
  it('is hidden for a manager and when the server has billing off', async () => {
    useSession.getState().setUser(manager);
    renderWithProviders(<UserEditDialog onClose={() => undefined} props={{ userId: 7 }} />);
    await screen.findByTestId('user-tab-permissions');
    expect(screen.queryByTestId('user-tab-billing')).toBeNull();
    cleanup();
    useSession.getState().setServer(serverWith(false), { licensemode: null, devicelimit: null });
    useSession.getState().setUser(admin);
    renderWithProviders(<UserEditDialog onClose={() => undefined} props={{ userId: 7 }} />);
    await screen.findByTestId('user-tab-permissions');
    expect(screen.queryByTestId('user-tab-billing')).toBeNull();
  });

  it('a bad CPF and a zero price show the pt-BR messages and nothing is sent', async () => {
    useSession.getState().setUser(admin);
    renderWithProviders(<UserEditDialog onClose={() => undefined} props={{ userId: 7 }} />);
    fireEvent.click(await screen.findByTestId('user-tab-billing'));
    expect((await screen.findByTestId('account-state')).textContent).toBe('Ativa');
    fireEvent.click(screen.getByTestId('billing-billing'));
    fireEvent.change(screen.getByTestId('billing-taxId'), { target: { value: '123.456.789-00' } });
    fireEvent.change(screen.getByTestId('billing-price'), { target: { value: '0' } });
    fireEvent.change(screen.getByTestId('billing-dueDay'), { target: { value: '10' } });
    fireEvent.click(screen.getByTestId('user-save'));
    expect(await screen.findByText('CPF ou CNPJ inválido')).toBeTruthy();
    expect(screen.getByText('Informe um valor mensal maior que zero')).toBeTruthy();
    expect(writes).toHaveLength(0);
  });

  it('saves the billing attributes with the rest of the user (numbers as numbers, CNPJ digits only)', async () => {
    useSession.getState().setUser(admin);
    const onClose = vi.fn();
    renderWithProviders(<UserEditDialog onClose={onClose} props={{ userId: 7 }} />);
    fireEvent.click(await screen.findByTestId('user-tab-billing'));
    fireEvent.click(await screen.findByTestId('billing-billing'));
    const set = (k: string, v: string) =>
      fireEvent.change(screen.getByTestId(`billing-${k}`), { target: { value: v } });
    set('taxId', '11.222.333/0001-81');
    set('description', 'Rastreamento');
    set('price', '59,90');
    set('dueDay', '5');
    set('fine', '2');
    set('interest', '1');
    fireEvent.click(screen.getByTestId('billing-autoSuspend'));
    set('autoSuspendDays', '10');
    fireEvent.click(screen.getByTestId('billing-trustUnlock'));
    set('trustUnlockDays', '3');
    fireEvent.click(screen.getByTestId('user-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes[0].url).toBe('/api/users/7');
    expect((writes[0].body as User).attributes).toEqual({
      keep: 'me',
      'rastro.billing': true,
      'rastro.taxId': '11222333000181',
      'rastro.billingDescription': 'Rastreamento',
      'rastro.billingPrice': 59.9,
      'rastro.billingDueDay': 5,
      'rastro.billingFine': 2,
      'rastro.billingFineMode': 'percentage',
      'rastro.billingInterest': 1,
      'rastro.autoSuspend': true,
      'rastro.autoSuspendDays': 10,
      'rastro.trustUnlock': true,
      'rastro.trustUnlockDays': 3,
    });
  });

  it('shows a running trust period', async () => {
    useSession.getState().setUser(admin);
    stored[7].attributes = { 'rastro.suspended': true, 'rastro.trustUntil': '2999-01-02T10:00:00.000Z' };
    renderWithProviders(<UserEditDialog onClose={() => undefined} props={{ userId: 7 }} />);
    fireEvent.click(await screen.findByTestId('user-tab-billing'));
    const badge = await screen.findByTestId('account-state');
    expect(badge.dataset.state).toBe('trust');
    expect(badge.textContent).toMatch(/^Desbloqueio de confiança até \S+/);
  });
});

describe('UsersPage suspension', () => {
  it('an administrator suspends a customer after confirming, then sees the badge and reactivates him', async () => {
    useSession.getState().setUser(admin);
    renderWithProviders(<UsersPage />);
    const row = await waitFor(() => screen.getAllByTestId('user-row').find((r) => r.dataset.userId === '7')!);
    expect(within(row).queryByTestId('account-state')).toBeNull();
    fireEvent.click(within(row).getByTestId('user-suspend'));
    expect(
      await screen.findByText('Suspender a conta de Ana Souza? O acesso fica bloqueado até a reativação.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByTestId('user-suspension-yes'));
    await waitFor(() => expect(writes.map((w) => w.url)).toEqual(['/rastro/users/7/suspend']));
    const badge = await screen.findByTestId('account-state');
    expect(badge.textContent).toBe('Suspensa');
    fireEvent.click(await screen.findByTestId('user-reactivate'));
    fireEvent.click(await screen.findByTestId('user-suspension-yes'));
    await waitFor(() => expect(writes.map((w) => w.url)).toContain('/rastro/users/7/reactivate'));
    await waitFor(() => expect(screen.queryByTestId('account-state')).toBeNull());
  });

  it('a server error is shown translated with its text; no actions without billing', async () => {
    useSession.getState().setUser(admin);
    vi.stubGlobal(
      'fetch',
      fakeFetch((url) =>
        url.endsWith('/suspend') ? text('Account not found', 404) : json([structuredClone(baseUser)]),
      ).fn,
    );
    renderWithProviders(<UsersPage />);
    fireEvent.click(await screen.findByTestId('user-suspend'));
    fireEvent.click(await screen.findByTestId('user-suspension-yes'));
    expect(await screen.findByText('Não foi possível suspender a conta: Account not found')).toBeTruthy();
    cleanup();
    useSession.getState().setServer(serverWith(false), { licensemode: null, devicelimit: null });
    renderWithProviders(<UsersPage />);
    await screen.findByTestId('user-row');
    expect(screen.queryByTestId('user-suspend')).toBeNull();
  });
});
