// /commands on the catalogue scaffold: an administrator gets add, edit and delete; a read-only user only reads.
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders } from '../../components/testing.tsx';
import { useSession } from '../../stores/session.ts';
import { CommandsPage } from './CommandsPage.tsx';

const user = (extra: Partial<User> = {}) =>
  ({ id: 1, name: 'u', administrator: true, attributes: {}, ...extra }) as User;

beforeEach(() => {
  const f = fakeFetch(() =>
    json([{ id: 3, deviceId: 0, type: 'positionPeriodic', description: 'Periódico', attributes: {} }]),
  );
  vi.stubGlobal('fetch', f.fn);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CommandsPage', () => {
  it('offers an administrator add, edit and delete', async () => {
    useSession.setState({ user: user(), server: null, isPlus: false });
    renderWithProviders(<CommandsPage />);
    expect(await screen.findByText('Periódico')).toBeTruthy();
    expect(screen.getByTestId('command-add')).toBeTruthy();
    expect(screen.getByTestId('command-edit')).toBeTruthy();
    expect(screen.getByTestId('command-delete')).toBeTruthy();
  });

  it('offers a read-only user nothing to change', async () => {
    useSession.setState({
      user: user({ administrator: false, readonly: true }),
      server: null,
      isPlus: false,
    });
    renderWithProviders(<CommandsPage />);
    expect(await screen.findByText('Periódico')).toBeTruthy();
    expect(screen.queryByTestId('command-add')).toBeNull();
    expect(screen.queryByTestId('command-edit')).toBeNull();
  });
});
