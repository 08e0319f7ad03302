// The device detail reads as people read (issue #29): labels instead of Traccar keys, units, the locale's decimal
// comma, Sim/Não instead of true/false, engine hours as hours, the driver's name, unknown keys apart ("Outros").
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { Device, Position, User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders } from '../../components/testing.tsx';
import { useLive } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';
import { DeviceDetailPage } from './DeviceDetailPage.tsx';

const device = {
  id: 7,
  name: 'Van 7',
  uniqueId: 'u7',
  status: 'online',
  lastUpdate: null,
  attributes: {},
} as unknown as Device;

const position = {
  id: 70,
  deviceId: 7,
  latitude: -23.5,
  longitude: -46.6,
  speed: 0,
  course: 0,
  address: 'Rua A',
  attributes: {
    batteryLevel: 87,
    battery: 3.91,
    power: 12.4,
    totalDistance: 61_100,
    hours: 42_300_000,
    ignition: true,
    motion: false,
    rssi: 4,
    sat: 9,
    rpm: 1850,
    fuel: 40.25,
    driverUniqueId: 'D1',
    vendorFlag: 12.345,
  },
} as unknown as Position;

const KEYS = [
  'batteryLevel',
  'totalDistance',
  'driverUniqueId',
  'ignition',
  'motion',
  'rssi',
  'sat',
  'rpm',
  'fuel',
];

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    fakeFetch((url) =>
      url.includes('/drivers')
        ? json([{ id: 1, name: 'Ana Souza', uniqueId: 'D1', attributes: {} }])
        : json([]),
    ).fn,
  );
  useSession.setState({
    user: { id: 1, name: 'u', administrator: true, attributes: {} } as unknown as User,
    server: null,
  });
  useLive.getState().setDevices([device]);
  useLive.getState().setPositions([position]);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const renderDetail = () =>
  renderWithProviders(
    <Route path="/devices/:deviceId">
      <DeviceDetailPage />
    </Route>,
    { route: '/devices/7' },
  );

describe('device detail texts (issue #29)', () => {
  it('shows labels, units and local numbers, not Traccar keys, true/false or milliseconds', async () => {
    renderDetail();
    const list = screen.getByTestId('detail-attributes');
    await within(list).findByText('Ana Souza');
    const text = list.textContent ?? '';
    for (const key of KEYS) expect(within(list).queryByText(key), key).toBeNull();
    expect(text).not.toMatch(/\btrue\b|\bfalse\b/);
    expect(text).not.toContain('42300000');
    expect(text).not.toContain('3.91');
    for (const shown of ['Nível da bateria', '87%', '3,91 V', '61,10 km', '11,8 h', 'Ignição', 'Sim', 'Não'])
      expect(text, shown).toContain(shown);
    expect(
      within(screen.getByTestId('detail-indicators')).getByTestId('indicator-battery').textContent,
    ).toContain('3,91 V');
  });

  it('puts unknown keys apart under "Outros", with their raw key', () => {
    renderDetail();
    const others = screen.getByTestId('detail-others');
    expect(others.textContent).toContain('Outros');
    expect(others.textContent).toContain('vendorFlag');
    expect(others.textContent).toContain('12,35');
    expect(screen.getByTestId('detail-known').textContent).not.toContain('vendorFlag');
  });

  it('speaks Spanish too', () => {
    renderWithProviders(
      <Route path="/devices/:deviceId">
        <DeviceDetailPage />
      </Route>,
      { route: '/devices/7', locale: 'es' },
    );
    const text = screen.getByTestId('detail-attributes').textContent ?? '';
    expect(text).toContain('Nivel de batería');
    expect(text).toContain('Sí');
    expect(text).toContain('Otros');
  });
});
