import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Server, User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders, text } from '../../components/testing.tsx';
import { i18n, setLocale } from '../../i18n/index.ts';
import { useSession } from '../../stores/session.ts';
import { UserEditDialog } from './UserEditDialog.tsx';
import { UsersPage } from './UsersPage.tsx';
import { filterUsers } from './useUsersList.ts';

const baseUser: User = {
  id: 7,
  attributes: { keep: 'me' },
  name: 'Ana Souza',
  login: null,
  email: 'ana@example.com',
  phone: '81 3333-0000',
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
const manager = {
  ...baseUser,
  id: 5,
  name: 'Gerente',
  email: 'gerente@x.com',
  userLimit: 10,
  attributes: {},
};
const server = {
  id: 1,
  attributes: { 'rastro.enableAdvancedPerms': true },
  readonly: false,
} as unknown as Server;

let stored: Record<number, User>;
const writes: { method: string; url: string; body: User }[] = [];

beforeEach(() => {
  stored = { 7: structuredClone(baseUser) };
  writes.length = 0;
  useSession.getState().setServer(server, { licensemode: null, devicelimit: null });
  vi.stubGlobal(
    'fetch',
    fakeFetch((url, init) => {
      const m = /^\/api\/users(?:\/(\d+))?$/.exec(url);
      if (!m) return text('not found', 404);
      const method = init.method ?? 'GET';
      if (method === 'GET') return m[1] ? json(stored[Number(m[1])]) : json(Object.values(stored));
      const body = JSON.parse(String(init.body)) as User;
      writes.push({ method, url, body });
      const saved = { ...body, id: body.id || 99, password: null };
      stored[saved.id] = saved;
      return json(saved);
    }).fn,
  );
});
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await setLocale('pt-BR');
});

describe('UserEditDialog', () => {
  it('My Account of an ordinary user: no permission tab; saves the full object, updates the session and language', async () => {
    useSession.getState().setUser(structuredClone(baseUser));
    const onClose = vi.fn();
    renderWithProviders(<UserEditDialog onClose={onClose} props={{ userId: 7 }} />);
    const phone = await screen.findByTestId('user-phone');
    expect(screen.queryByTestId('user-tab-permissions')).toBeNull();
    fireEvent.change(phone, { target: { value: '81 4444-5555' } });
    fireEvent.click(screen.getByTestId('user-tab-preferences'));
    // an unset choice says the server's setting applies, never an empty box
    expect((await screen.findByTestId('user-coordinate-format')).getAttribute('placeholder')).toBe(
      'Padrão do servidor',
    );
    fireEvent.click(await screen.findByTestId('user-language'));
    fireEvent.click(await screen.findByText('English (US)'));
    fireEvent.click(screen.getByTestId('user-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes).toHaveLength(1);
    expect(writes[0].method).toBe('PUT');
    expect(writes[0].url).toBe('/api/users/7');
    expect(writes[0].body).toMatchObject({
      ...baseUser,
      phone: '81 4444-5555',
      password: null,
      attributes: { keep: 'me', 'rastro.lang': 'en-US' },
    });
    expect(useSession.getState().user?.phone).toBe('81 4444-5555');
    expect(i18n.language).toBe('en-US');
  });

  it('a new user shows the pt-BR messages for a bad e-mail and a password mismatch and sends nothing', async () => {
    useSession.getState().setUser(admin);
    renderWithProviders(<UserEditDialog onClose={() => undefined} props={{}} />);
    fireEvent.change(await screen.findByTestId('user-name'), { target: { value: 'João Silva' } });
    fireEvent.change(screen.getByTestId('user-email'), { target: { value: 'joao@' } });
    fireEvent.change(screen.getByTestId('user-password'), { target: { value: 'abcd' } });
    fireEvent.change(screen.getByTestId('user-confirm-password'), { target: { value: 'abce' } });
    fireEvent.click(screen.getByTestId('user-save'));
    expect(await screen.findByText('Endereço de e-mail inválido')).toBeTruthy();
    expect(screen.getByText('As senhas não conferem')).toBeTruthy();
    expect(writes).toHaveLength(0);
  });

  it('an administrator sets limits and the advanced permission matrix of another user', async () => {
    useSession.getState().setUser(admin);
    const onClose = vi.fn();
    renderWithProviders(<UserEditDialog onClose={onClose} props={{ userId: 7 }} />);
    fireEvent.click(await screen.findByTestId('user-tab-permissions'));
    fireEvent.click(await screen.findByTestId('user-readonly'));
    fireEvent.change(screen.getByTestId('user-deviceLimit'), { target: { value: '3' } });
    fireEvent.click(screen.getByTestId('user-advanced-use'));
    fireEvent.click(await screen.findByTestId('perm-devices-view'));
    fireEvent.click(screen.getByTestId('perm-maintenance-view'));
    expect(screen.getByTestId('user-advanced-string').textContent).toBe(
      '00800000' + '00000000' + '00000000' + '80000000',
    );
    fireEvent.click(screen.getByTestId('user-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes[0].body).toMatchObject({
      id: 7,
      readonly: true,
      deviceLimit: 3,
      attributes: { keep: 'me', 'rastro.advancedPerms': '00800000000000000000000080000000' },
    });
  });

  it('a manager’s new user starts with the manager’s restrictions (locked) and permission string', async () => {
    const perms = '00ff00ff000000000000000000000000';
    useSession.getState().setUser({
      ...manager,
      deviceReadonly: true,
      attributes: { 'rastro.advancedPerms': perms },
    });
    const onClose = vi.fn();
    renderWithProviders(<UserEditDialog onClose={onClose} props={{}} />);
    fireEvent.change(await screen.findByTestId('user-name'), { target: { value: 'Novo Usuário' } });
    fireEvent.change(screen.getByTestId('user-email'), { target: { value: 'novo@x.com' } });
    fireEvent.change(screen.getByTestId('user-password'), { target: { value: 'abcd' } });
    fireEvent.change(screen.getByTestId('user-confirm-password'), { target: { value: 'abcd' } });
    fireEvent.click(screen.getByTestId('user-tab-permissions'));
    const locked = (await screen.findByTestId('user-deviceReadonly')) as HTMLInputElement;
    expect(locked.checked).toBe(true);
    expect(locked.disabled).toBe(true);
    expect((screen.getByTestId('user-readonly') as HTMLInputElement).disabled).toBe(false);
    fireEvent.click(screen.getByTestId('user-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(writes[0].body).toMatchObject({
      deviceReadonly: true,
      readonly: false,
      attributes: { 'rastro.advancedPerms': perms },
    });
  });

  it('another administrator opening the superior administrator sees the refusal and cannot save', async () => {
    stored[1] = admin;
    useSession.getState().setUser({ ...admin, id: 2, name: 'Second admin', email: 'second@x.com' });
    renderWithProviders(<UserEditDialog onClose={() => undefined} props={{ userId: 1 }} />);
    expect(await screen.findByText('Você não pode alterar um administrador superior')).toBeTruthy();
    expect((screen.getByTestId('user-save') as HTMLButtonElement).disabled).toBe(true);
  });

  it('a manager editing a managed user sees the flags but not administrator or the limits', async () => {
    useSession.getState().setUser(manager);
    renderWithProviders(<UserEditDialog onClose={() => undefined} props={{ userId: 7 }} />);
    fireEvent.click(await screen.findByTestId('user-tab-permissions'));
    expect(await screen.findByTestId('user-disabled')).toBeTruthy();
    expect(screen.queryByTestId('user-administrator')).toBeNull();
    expect(screen.queryByTestId('user-deviceLimit')).toBeNull();
    expect(screen.queryByTestId('user-userLimit')).toBeNull();
  });
});

describe('UsersPage', () => {
  it('a user who cannot load user lists (userLimit 0, not admin) gets no list and no create button', async () => {
    useSession.getState().setUser({ ...baseUser, readonly: true });
    renderWithProviders(<UsersPage />);
    expect(await screen.findByTestId('users-no-access')).toBeTruthy();
    expect(screen.queryByTestId('users-add')).toBeNull();
  });

  it('a manager whose advanced permissions lack bit 16 (users) gets no list on a Plus server', async () => {
    useSession.getState().setServer(server, { licensemode: 'plus', devicelimit: '0' });
    useSession
      .getState()
      .setUser({ ...manager, attributes: { 'rastro.advancedPerms': 'ff' + '0'.repeat(30) } });
    renderWithProviders(<UsersPage />);
    expect(await screen.findByTestId('users-no-access')).toBeTruthy();
    useSession
      .getState()
      .setUser({ ...manager, attributes: { 'rastro.advancedPerms': '0000ff' + '0'.repeat(26) } });
    expect(await screen.findByTestId('users-page')).toBeTruthy();
  });

  it('a manager whose advanced permissions give users view only is offered no create, link or delete', async () => {
    useSession.getState().setServer(server, { licensemode: 'plus', devicelimit: '0' });
    // bit 16 (users view) on, 20–22 (create, edit, delete) off: the server's gate refuses those writes
    useSession
      .getState()
      .setUser({ ...manager, attributes: { 'rastro.advancedPerms': '000080' + '0'.repeat(26) } });
    renderWithProviders(<UsersPage />);
    await waitFor(() => expect(screen.getAllByTestId('user-row')).toHaveLength(1));
    expect(screen.queryByTestId('users-add')).toBeNull();
    expect(screen.queryByTestId('users-import')).toBeNull();
    expect(screen.queryByTestId('user-link')).toBeNull();
    expect(screen.queryByTestId('user-delete')).toBeNull();
  });

  it('lists the users with badges and filters by the search text', async () => {
    useSession.getState().setUser(admin);
    stored[8] = {
      ...baseUser,
      id: 8,
      name: 'Bruno Reis',
      email: 'bruno@x.com',
      userLimit: 5,
      readonly: true,
    };
    stored[9] = { ...baseUser, id: 9, name: 'Guest', email: 'g@x.com', temporary: true };
    renderWithProviders(<UsersPage />);
    await waitFor(() => expect(screen.getAllByTestId('user-row')).toHaveLength(2));
    const bruno = screen.getAllByTestId('user-row').find((r) => r.dataset.userId === '8')!;
    expect(bruno.querySelector('[data-testid="badge-manager"]')).toBeTruthy();
    expect(bruno.querySelector('[data-testid="badge-readonly"]')).toBeTruthy();
    fireEvent.change(screen.getByTestId('users-search'), { target: { value: 'BRUNO' } });
    await waitFor(() => expect(screen.getAllByTestId('user-row')).toHaveLength(1));
  });

  it('another administrator gets no edit / delete on the superior administrator, and no delete on itself', async () => {
    const second = { ...admin, id: 2, name: 'Second admin', email: 'second@x.com' };
    stored[1] = admin;
    stored[2] = second;
    useSession.getState().setUser(second);
    renderWithProviders(<UsersPage />);
    await waitFor(() => expect(screen.getAllByTestId('user-row')).toHaveLength(3));
    const row = (id: number) =>
      screen.getAllByTestId('user-row').find((r) => r.dataset.userId === String(id))!;
    const has = (id: number, testId: string) => !!row(id).querySelector(`[data-testid="${testId}"]`);
    expect([has(1, 'user-edit-open'), has(1, 'user-delete')]).toEqual([false, false]);
    expect([has(2, 'user-edit-open'), has(2, 'user-delete')]).toEqual([true, false]);
    expect([has(7, 'user-edit-open'), has(7, 'user-delete')]).toEqual([true, true]);
  });

  it('the superior administrator edits and deletes the other administrators', async () => {
    stored[1] = admin;
    stored[2] = { ...admin, id: 2, name: 'Second admin', email: 'second@x.com' };
    useSession.getState().setUser(admin);
    renderWithProviders(<UsersPage />);
    await waitFor(() => expect(screen.getAllByTestId('user-row')).toHaveLength(3));
    const second = screen.getAllByTestId('user-row').find((r) => r.dataset.userId === '2')!;
    expect(second.querySelector('[data-testid="user-edit-open"]')).toBeTruthy();
    expect(second.querySelector('[data-testid="user-delete"]')).toBeTruthy();
    const own = screen.getAllByTestId('user-row').find((r) => r.dataset.userId === '1')!;
    expect(own.querySelector('[data-testid="user-delete"]')).toBeNull();
  });

  it('filterUsers matches name, e-mail and phone, case-insensitive', () => {
    const list = [
      { name: 'Ana', email: 'ana@x.com', phone: '81 1' },
      { name: 'Bia', email: 'bia@y.com', phone: null },
    ];
    expect(filterUsers(list, 'Y.COM').map((u) => u.name)).toEqual(['Bia']);
    expect(filterUsers(list, '81').map((u) => u.name)).toEqual(['Ana']);
    expect(filterUsers(list, ' ')).toHaveLength(2);
  });
});
