// Maintenances dialog: values shown in the user's unit (km, mi, h) with the next due value, and the body saved
// in Traccar's units (metres, milliseconds).
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Maintenance, User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders } from '../../components/testing.tsx';
import { useSession } from '../../stores/session.ts';
import { MaintenancesDialog } from './MaintenancesDialog.tsx';

const LIST: Maintenance[] = [
  { id: 1, name: 'Óleo', type: 'totalDistance', start: 0, period: 10_000_000, attributes: {} },
  { id: 2, name: 'Revisão', type: 'hours', start: 0, period: 1_800_000_000, attributes: {} },
];
const user = (attributes: Record<string, unknown> = {}) =>
  ({ id: 1, name: 'u', administrator: true, attributes }) as User;

let calls: { url: string; init: RequestInit }[] = [];
beforeEach(() => {
  const f = fakeFetch((_url, init) =>
    init.method === 'POST' ? json({ ...JSON.parse(String(init.body)), id: 9 }) : json(LIST),
  );
  calls = f.calls;
  vi.stubGlobal('fetch', f.fn);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const props = { onClose: () => undefined, props: {} };

describe('MaintenancesDialog', () => {
  it('lists cycle and next due in km and hours', async () => {
    useSession.setState({ user: user(), server: null, isPlus: false });
    renderWithProviders(<MaintenancesDialog {...props} />);
    const rows = await screen.findAllByTestId('maintenance-row');
    expect(within(rows[0]).getByTestId('maintenance-period-cell').textContent).toBe('10.000 km');
    expect(within(rows[1]).getByTestId('maintenance-period-cell').textContent).toBe('500 h');
  });

  it('saves 10,000 km as 10,000,000 m; a miles user types miles', async () => {
    useSession.setState({ user: user(), server: null, isPlus: false });
    renderWithProviders(<MaintenancesDialog {...props} />);
    fireEvent.click(await screen.findByTestId('maintenance-add'));
    fireEvent.change(screen.getByTestId('maintenance-name'), { target: { value: 'Pneus' } });
    fireEvent.change(screen.getByTestId('maintenance-period'), { target: { value: '10000' } });
    expect((await screen.findByTestId('maintenance-next')).textContent).toBe('Próxima em 10.000 km');
    fireEvent.click(screen.getByTestId('maintenance-save'));
    await waitFor(() => expect(calls.some((c) => c.init.method === 'POST')).toBe(true));
    const body = JSON.parse(String(calls.find((c) => c.init.method === 'POST')!.init.body));
    expect(body).toMatchObject({ name: 'Pneus', type: 'totalDistance', start: 0, period: 10_000_000 });
  });

  it('shows miles for a user whose distance unit is mi', async () => {
    useSession.setState({ user: user({ distanceUnit: 'mi' }), server: null, isPlus: false });
    renderWithProviders(<MaintenancesDialog {...props} />);
    const rows = await screen.findAllByTestId('maintenance-row');
    expect(within(rows[0]).getByTestId('maintenance-period-cell').textContent).toBe('6.213,71 mi');
  });
});
