// Issue #27 "one home per rule": the device detail's favourite attributes and its picture follow the domain's
// rules (favorites.ts, lru.ts), not copies of their own — the user's favourites before the server's, and a
// category name the server cannot serve falls back to the default category picture.
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Route } from 'wouter';
import type { Device, Position, User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders } from '../../components/testing.tsx';
import { closeAllDialogs, useDialogs } from '../../shell/dialogs.ts';
import { closeDeviceAction, useDeviceAction } from '../../shell/deviceActions.ts';
import { useLive } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';
import { DeviceDetailPage } from './DeviceDetailPage.tsx';
import { DeviceImage } from './DeviceImage.tsx';

const device = {
  id: 8,
  name: 'Van 8',
  uniqueId: 'u8',
  status: 'online',
  category: 'Big Truck',
  lastUpdate: null,
  attributes: {},
} as unknown as Device;

const position = {
  id: 80,
  deviceId: 8,
  latitude: -23.5,
  longitude: -46.6,
  speed: 0,
  course: 0,
  attributes: { vendorServer: 1, vendorUser: 2, vendorOther: 3 },
} as unknown as Position;

beforeEach(() => {
  vi.stubGlobal('fetch', fakeFetch(() => json([])).fn);
  useSession.setState({
    user: {
      id: 1,
      name: 'u',
      administrator: true,
      attributes: { 'rastro.deviceAttributes': 'vendorUser' },
    } as unknown as User,
    server: { attributes: { 'rastro.deviceAttributes': 'vendorServer,vendorUser' } } as never,
  });
  useLive.getState().setDevices([device]);
  useLive.getState().setPositions([position]);
});
afterEach(() => {
  closeDeviceAction();
  closeAllDialogs();
  cleanup();
  vi.unstubAllGlobals();
});

describe('device detail: domain rules', () => {
  it("lists the user's favourites first, then the server's; only the user's can be unpinned", () => {
    renderWithProviders(
      <Route path="/devices/:deviceId">
        <DeviceDetailPage />
      </Route>,
      { route: '/devices/8' },
    );
    const favourites = screen.getByTestId('detail-favourites');
    const text = favourites.textContent ?? '';
    expect(text.indexOf('vendorUser')).toBeGreaterThan(-1);
    expect(text.indexOf('vendorUser')).toBeLessThan(text.indexOf('vendorServer'));
    expect(favourites.querySelectorAll('button')).toHaveLength(1);
    expect(screen.getByTestId('detail-attributes').textContent).not.toContain('vendorServer');
  });

  it('a category the server cannot serve falls back to the default category picture', () => {
    renderWithProviders(<DeviceImage device={device} ns="rastro" />);
    const img = screen.getByTestId('device-image') as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('/rastro/assets/images/8.png');
    act(() => void fireEvent.error(img));
    expect(img.getAttribute('src')).toBe('/rastro/assets/images/categories/default.png');
  });

  it('the action buttons follow the domain rule in the device state and open the shell typed actions', () => {
    useLive.getState().setPositions([{ ...position, attributes: { blocked: true } }]);
    renderWithProviders(
      <Route path="/devices/:deviceId">
        <DeviceDetailPage />
      </Route>,
      { route: '/devices/8' },
    );
    // blocked: the block button is the one in force, unlock is still offered
    expect(screen.getByTestId('action-block').getAttribute('data-active')).toBe('true');
    expect(screen.getByTestId('action-unlock').getAttribute('data-active')).toBeNull();
    fireEvent.click(screen.getByTestId('action-block'));
    expect(useDeviceAction.getState().open).toMatchObject({ kind: 'block', device: { id: 8 } });
    fireEvent.click(screen.getByTestId('action-anchor'));
    expect(useDeviceAction.getState().open).toMatchObject({ kind: 'anchor', anchor: 'enable' });
    fireEvent.click(screen.getByTestId('action-delete'));
    expect(useDeviceAction.getState().open).toMatchObject({ kind: 'delete', device: { id: 8 } });
    fireEvent.click(screen.getByTestId('action-commands'));
    expect(useDialogs.getState().open).toMatchObject([{ name: 'sendCommand', props: { deviceId: 8 } }]);
  });

  it('a limitCommands user gets no block, unlock or commands button', () => {
    act(() =>
      useSession.setState({ user: { id: 2, name: 'l', limitCommands: true, attributes: {} } as never }),
    );
    renderWithProviders(
      <Route path="/devices/:deviceId">
        <DeviceDetailPage />
      </Route>,
      { route: '/devices/8' },
    );
    for (const key of ['block', 'unlock', 'commands'])
      expect(screen.queryByTestId(`action-${key}`)).toBeNull();
    expect(screen.getByTestId('action-anchor')).toBeTruthy();
  });
});
