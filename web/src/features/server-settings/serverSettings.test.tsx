import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Server, User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders } from '../../components/testing.tsx';
import { useSession } from '../../stores/session.ts';
import { ServerSettingsDialog } from './ServerSettingsDialog.tsx';

const server = {
  id: 1,
  attributes: { keepMe: 'yes' },
  registration: false,
  readonly: false,
  deviceReadonly: false,
  map: null,
  bingKey: null,
  mapUrl: null,
  overlayUrl: null,
  latitude: -23.55,
  longitude: -46.63,
  zoom: 12,
  forceSettings: false,
  coordinateFormat: null,
  limitCommands: false,
  disableReports: false,
  fixedEmail: false,
  poiLayer: null,
  announcement: null,
  version: '1.0.0',
} as unknown as Server;

// jsdom has no FontFaceSet; Mantine's autosize textarea listens to it.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined },
  });

let stored: Server;
const puts: Server[] = [];

beforeEach(() => {
  stored = structuredClone(server);
  puts.length = 0;
  useSession.getState().setUser({ id: 1, administrator: true, attributes: {} } as unknown as User);
  vi.stubGlobal(
    'fetch',
    fakeFetch((url, init) => {
      if (url === '/api/server/timezones') return json(['America/Sao_Paulo', 'UTC']);
      if (url === '/api/server' && init.method === 'PUT') {
        stored = JSON.parse(String(init.body)) as Server;
        puts.push(stored);
        return json(stored);
      }
      return json(stored, 200, { licensemode: 'plus', devicelimit: '0' });
    }).fn,
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('ServerSettingsDialog', () => {
  it('saves the whole server with the edited fields and refreshes the session', async () => {
    const onClose = vi.fn();
    renderWithProviders(<ServerSettingsDialog onClose={onClose} props={{}} />);
    fireEvent.click(await screen.findByTestId('server-registration'));
    fireEvent.click(screen.getByTestId('server-tab-units'));
    fireEvent.change(await screen.findByTestId('server-currency'), { target: { value: 'BRL' } });
    fireEvent.change(screen.getByTestId('server-fuelPrice'), { target: { value: '5,89' } });
    fireEvent.click(screen.getByTestId('server-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({
      id: 1,
      registration: true,
      latitude: -23.55,
      zoom: 12,
      attributes: { keepMe: 'yes', currency: 'BRL', fuelPrice: 5.89 },
    });
    expect(useSession.getState().server?.attributes).toEqual({
      keepMe: 'yes',
      currency: 'BRL',
      fuelPrice: 5.89,
    });
  });

  it('shows the error on the tab of the wrong field and does not save', async () => {
    renderWithProviders(<ServerSettingsDialog onClose={() => undefined} props={{}} />);
    fireEvent.click(await screen.findByTestId('server-tab-map'));
    fireEvent.change(await screen.findByTestId('server-zoom'), { target: { value: '40' } });
    fireEvent.click(screen.getByTestId('server-tab-integrations'));
    fireEvent.click(screen.getByTestId('server-save'));
    expect(await screen.findByText('Zoom entre 0 e 22')).toBeTruthy();
    expect(puts).toHaveLength(0);
  });

  it('engine-block speed limit: a negative value is refused on the permissions tab, 40 is saved as a number', async () => {
    const onClose = vi.fn();
    renderWithProviders(<ServerSettingsDialog onClose={onClose} props={{}} />);
    fireEvent.click(await screen.findByTestId('server-tab-permissions'));
    const field = await screen.findByTestId('server-blockMaxSpeed');
    fireEvent.change(field, { target: { value: '-5' } });
    fireEvent.click(screen.getByTestId('server-tab-general'));
    fireEvent.click(screen.getByTestId('server-save'));
    expect(await screen.findByText('Número em km/h, de 0 a 1000')).toBeTruthy();
    expect(puts).toHaveLength(0);
    fireEvent.change(screen.getByTestId('server-blockMaxSpeed'), { target: { value: '40' } });
    fireEvent.click(screen.getByTestId('server-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(puts[0]?.attributes).toEqual({ keepMe: 'yes', 'rastro.blockMaxSpeed': 40 });
  });
});

describe('Unidades: what "Padrão" means (issue #29)', () => {
  it('pt-BR names the language default (km/h, km); en-US names Traccar’s knots', async () => {
    renderWithProviders(<ServerSettingsDialog onClose={() => undefined} props={{}} />);
    fireEvent.click(await screen.findByTestId('server-tab-units'));
    const placeholder = (id: string) => screen.getByTestId(id).getAttribute('placeholder');
    await waitFor(() => expect(placeholder('server-speedUnit')).toBe('Padrão do idioma (km/h)'));
    expect(placeholder('server-distanceUnit')).toBe('Padrão do idioma (km)');
    expect(screen.getByTestId('server-units-default').textContent).toContain('km/h, km, m e litros');
    cleanup();
    renderWithProviders(<ServerSettingsDialog onClose={() => undefined} props={{}} />, { locale: 'en-US' });
    fireEvent.click(await screen.findByTestId('server-tab-units'));
    await waitFor(() => expect(placeholder('server-speedUnit')).toBe('Language default (kn)'));
  });
});
