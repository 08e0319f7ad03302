import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification, Server, User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders, text } from '../../components/testing.tsx';
import { useSession } from '../../stores/session.ts';
import { applyDeviceLinks, linkedDevices } from './links.ts';
import { RuleManager } from './RuleManager.tsx';

const rule = (id: number, patch: Partial<Notification> = {}): Notification => ({
  id,
  type: 'alarm',
  description: null,
  notificators: 'web,mail',
  always: true,
  calendarId: 0,
  commandId: 0,
  attributes: { alarms: 'sos,powerCut', 'rastro.color': 'red', 'rastro.sound': 'audio5' },
  ...patch,
});

const path = (url: string) => new URL(url, 'http://x').pathname;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('device links of an event rule', () => {
  it('finds the devices a rule is linked to; a device that is gone is skipped', async () => {
    const f = fakeFetch((url) => {
      const id = Number(new URL(url, 'http://x').searchParams.get('deviceId'));
      if (id === 3) return text('SecurityException: Device access denied', 400);
      return json(id === 7 ? [rule(5), rule(9)] : [rule(9)]);
    });
    vi.stubGlobal('fetch', f.fn);
    expect(await linkedDevices(5, [7, 2, 3, 7])).toEqual([7]);
    expect(f.calls).toHaveLength(3);
  });

  it('a server failure is not taken for "not linked"', async () => {
    vi.stubGlobal('fetch', fakeFetch(() => text('boom', 500)).fn);
    await expect(linkedDevices(5, [1])).rejects.toThrow('boom');
  });

  it('links the added devices and unlinks the removed ones', async () => {
    const f = fakeFetch(() => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', f.fn);
    expect(await applyDeviceLinks(5, [1, 2], [2, 3])).toEqual({ add: [3], remove: [1] });
    expect(f.calls.map((c) => [c.init.method, path(c.url), JSON.parse(String(c.init.body))])).toEqual([
      ['POST', '/api/permissions', { deviceId: 3, notificationId: 5 }],
      ['DELETE', '/api/permissions', { deviceId: 1, notificationId: 5 }],
    ]);
  });
});

describe('RuleManager', () => {
  const api = (rules: Notification[]) =>
    fakeFetch((url) => {
      switch (path(url)) {
        case '/api/notifications':
          return json(rules);
        case '/api/notifications/types':
          return json(['alarm', 'ignitionOn'].map((type) => ({ type })));
        case '/api/notifications/notificators':
          return json(['web', 'mail', 'command'].map((type) => ({ type })));
        default:
          return json([]);
      }
    });

  beforeEach(() => {
    useSession.getState().setServer({ id: 1, attributes: {}, readonly: false } as unknown as Server);
    useSession.getState().setUser({ id: 1, administrator: true, attributes: {} } as unknown as User);
  });

  it('lists rules with the type translated, channels, colour and the all-devices flag', async () => {
    vi.stubGlobal('fetch', api([rule(5), rule(6, { type: 'ignitionOn', always: false, attributes: {} })]).fn);
    renderWithProviders(<RuleManager variant="notifications" />);
    const rows = await screen.findAllByTestId('rule-row');
    expect(rows).toHaveLength(2);
    expect(rows[0].textContent).toContain('Alarme');
    expect(rows[0].textContent).toContain('SOS, Corte de energia');
    expect(rows[0].querySelectorAll('[data-testid=rule-channel]')).toHaveLength(2);
    expect(rows[0].textContent).toContain('E-mail');
    expect(rows[0].querySelector('[data-testid=rule-swatch]')?.getAttribute('data-color')).toBe('red');
    expect(rows[0].querySelector('[data-testid=rule-always-yes]')).not.toBeNull();
    expect(rows[1].textContent).toContain('Ignição ligada');
    expect(rows[1].querySelector('[data-testid=rule-swatch]')?.getAttribute('data-color')).toBe('soft-info');
    expect(rows[1].querySelector('[data-testid=rule-always-no]')).not.toBeNull();

    fireEvent.change(screen.getByTestId('rules-search'), { target: { value: 'ignição' } });
    expect(screen.getAllByTestId('rule-row')).toHaveLength(1);
  });

  it('the events variant lists only device-bound rules', async () => {
    vi.stubGlobal('fetch', api([rule(5), rule(6, { always: false, calendarId: 0 })]).fn);
    renderWithProviders(<RuleManager variant="events" />);
    await waitFor(() => expect(screen.getAllByTestId('rule-row')).toHaveLength(1));
    expect(screen.getByTestId('rule-row').getAttribute('data-rule-id')).toBe('6');
  });

  it('shows the SPEC §5 message when an alarm rule has no alarm', async () => {
    const f = api([]);
    vi.stubGlobal('fetch', f.fn);
    renderWithProviders(<RuleManager variant="notifications" />);
    fireEvent.click(await screen.findByTestId('rule-add'));
    fireEvent.click(await screen.findByTestId('rule-save'));
    expect(await screen.findByText('Selecione pelo menos um alarme')).toBeTruthy();
    expect(f.calls.some((c) => c.init.method === 'POST')).toBe(false);
  });

  it('the events variant opens a rule with the devices it is linked to, looked up before the form opens', async () => {
    const f = fakeFetch((url) => {
      const u = new URL(url, 'http://x');
      if (u.pathname === '/api/devices')
        return json([
          { id: 7, name: 'Caminhão 7' },
          { id: 8, name: 'Van 8' },
        ]);
      if (u.pathname !== '/api/notifications') return json([]);
      const device = u.searchParams.get('deviceId');
      const bound = rule(6, { type: 'ignitionOn', always: false, calendarId: 0, attributes: {} });
      return json(device === '8' ? [] : [bound]);
    });
    vi.stubGlobal('fetch', f.fn);
    renderWithProviders(<RuleManager variant="events" />);
    await waitFor(() => expect(screen.getAllByTestId('rule-row')).toHaveLength(1));
    await waitFor(() => expect(f.calls.some((c) => path(c.url) === '/api/devices')).toBe(true));
    fireEvent.click(screen.getByTestId('rule-edit'));
    await screen.findByTestId('rule-form');
    expect(f.calls.map((c) => new URL(c.url, 'http://x').searchParams.get('deviceId'))).toEqual(
      expect.arrayContaining(['7', '8']),
    );
    const hidden = [...document.querySelectorAll<HTMLInputElement>('input[type=hidden]')].map((i) => i.value);
    expect(hidden).toContain('7');
    expect(hidden).not.toContain('8');
    expect(hidden).not.toContain('7,8');
  });

  it('a refused delete says why, in the rule texts', async () => {
    vi.stubGlobal(
      'fetch',
      fakeFetch((url, init) =>
        init.method === 'DELETE'
          ? text('SecurityException: Manager access required', 400)
          : api([rule(5)]).fn(url, init),
      ).fn,
    );
    renderWithProviders(<RuleManager variant="notifications" />);
    fireEvent.click((await screen.findAllByTestId('rule-delete'))[0]);
    fireEvent.click(await screen.findByTestId('rule-delete-yes'));
    const toast = await screen.findByText(/^Não foi possível excluir a regra/, undefined, { timeout: 5000 });
    expect(toast.textContent).toMatch(/^Não foi possível excluir a regra: [^:{]+$/);
  });

  it('a read-only user can neither create, edit nor delete', async () => {
    useSession.getState().setUser({ id: 2, readonly: true, attributes: {} } as unknown as User);
    vi.stubGlobal('fetch', api([rule(5)]).fn);
    renderWithProviders(<RuleManager variant="notifications" />);
    await screen.findAllByTestId('rule-row');
    expect(screen.getByTestId('rules-readonly')).toBeTruthy();
    expect(screen.queryByTestId('rule-add')).toBeNull();
    expect(screen.queryByTestId('rule-edit')).toBeNull();
    expect(screen.queryByTestId('rule-delete')).toBeNull();
  });
});
