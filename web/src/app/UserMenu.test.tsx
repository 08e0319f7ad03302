import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import type { Server, User } from '@rastro/domain';
import { renderWithProviders } from '../components/testing.tsx';
import { useSession } from '../stores/session.ts';
import { closeAllDialogs, useDialogs } from '../shell/dialogs.ts';
import { UserMenu } from './UserMenu.tsx';

const server = { id: 1, attributes: { 'rastro.enableBilling': true } } as unknown as Server;
const admin = { id: 1, name: 'Admin', administrator: true, attributes: {} } as unknown as User;
const plain = { id: 2, name: 'Ana', administrator: false, attributes: {} } as unknown as User;

function open(user: User, isPlus = true) {
  useSession.setState({ user, server, isPlus, ns: 'rastro' });
  renderWithProviders(<UserMenu label={user.name} />);
  fireEvent.click(screen.getByTestId('user-menu-button'));
}
const entries = () =>
  screen
    .getAllByTestId(/^user-menu-(?!button$)/)
    .map((e) => e.getAttribute('data-testid')!.replace('user-menu-', ''));
const changelogOpen = () => useDialogs.getState().open.some((d) => d.name === 'changelog');

beforeEach(() => {
  closeAllDialogs();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-22T00:00:00Z'));
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('UserMenu (SPEC §2 table)', () => {
  it('admin on a Plus server with billing on sees every entry', async () => {
    open(admin);
    await screen.findByTestId('user-menu');
    expect(entries()).toEqual([
      'account',
      'advancedLogs',
      'integrations',
      'billing',
      'invoices',
      'theme',
      'users',
      'computed',
      'server',
      'notifications',
      'events',
      'drivers',
      'calendars',
      'maintenance',
      'logout',
    ]);
  });

  it('a plain user: My Invoices (billing attribute) but no admin or Plus-admin entries, nor Users (no user list)', async () => {
    open(plain);
    await screen.findByTestId('user-menu');
    expect(entries()).toEqual([
      'account',
      'invoices',
      'computed',
      'notifications',
      'events',
      'drivers',
      'calendars',
      'maintenance',
      'logout',
    ]);
  });

  it('changelog: the tenth quick click of an admin opens it; slow clicks and non-admins do not', async () => {
    open(admin);
    const version = await screen.findByTestId('version-text');
    for (let i = 0; i < 10; i++) {
      fireEvent.click(version);
      vi.setSystemTime(Date.now() + 2100);
    }
    expect(changelogOpen()).toBe(false);
    for (let i = 0; i < 9; i++) {
      fireEvent.click(version);
      vi.setSystemTime(Date.now() + 2000);
    }
    expect(changelogOpen()).toBe(false);
    fireEvent.click(version);
    expect(changelogOpen()).toBe(true);
    cleanup();
    closeAllDialogs();
    open(plain);
    const v2 = await screen.findByTestId('version-text');
    for (let i = 0; i < 12; i++) fireEvent.click(v2);
    expect(changelogOpen()).toBe(false);
  });
});
