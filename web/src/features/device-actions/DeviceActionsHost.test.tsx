// The device-actions host: the shell's openDeviceAction opens the slide dialogs; one gesture sends one request after the 500 ms
// delay; 202 shows pending; delete acts at once and goes to /devices; refused users cannot act.
import { notifications } from '@mantine/notifications';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { kmhToKnots, type Device, type Position, type User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders, text } from '../../components/testing.tsx';
import { SLIDE_FALLBACK_WIDTH } from '../../components/SlideToConfirm.tsx';
import { usePendingCommands } from '../../stores/pendingCommands.ts';
import { useSession } from '../../stores/session.ts';
import { useLive } from '../../stores/live.ts';
import { closeDeviceAction, openDeviceAction, type DeviceActionRequest } from '../../shell/deviceActions.ts';
import { DeviceActionsHost } from './DeviceActionsHost.tsx';

const device = {
  id: 9,
  name: 'Caminhão 9',
  uniqueId: 'u9',
  attributes: {},
  status: 'offline',
} as unknown as Device;
const user = (extra: Partial<User> = {}) =>
  ({ id: 1, name: 'u', administrator: false, attributes: {}, ...extra }) as User;

/** Opens the action through the shell and waits for the dialog (a lazy chunk). */
async function open(request: DeviceActionRequest) {
  act(() => openDeviceAction(request));
  await screen.findByTestId('action-question', {}, { timeout: 10_000 }); // the dialog is a lazy chunk
}

function fullSlide(testId = 'action-slide') {
  const handle = screen.getByTestId(`${testId}-handle`);
  const track = screen.getByTestId(`${testId}-track`);
  fireEvent.pointerDown(handle, { clientX: 10, pointerId: 1 });
  fireEvent.pointerMove(track, { clientX: SLIDE_FALLBACK_WIDTH + 50, pointerId: 1 });
  fireEvent.pointerUp(track, { pointerId: 1 });
}

let calls: { url: string; init: RequestInit }[] = [];
function stubFetch(handler: (url: string, init: RequestInit) => Response) {
  const f = fakeFetch(handler);
  calls = f.calls;
  vi.stubGlobal('fetch', f.fn);
}

beforeEach(() => {
  usePendingCommands.getState().reset();
  useSession.setState({ user: user(), server: null, isPlus: false });
  useLive.getState().setDevices([device]);
});
afterEach(() => {
  act(() => closeDeviceAction());
  cleanup();
  notifications.clean();
  vi.unstubAllGlobals();
});

describe('DeviceActionsHost', () => {
  it('block: a double gesture sends one engineStop; 200 shows the toast and closes', async () => {
    stubFetch(() => json({ id: 0, deviceId: 9, type: 'engineStop' }));
    renderWithProviders(<DeviceActionsHost />);
    await open({ kind: 'block', device });
    expect(screen.getByTestId('action-question').textContent).toContain('Caminhão 9');
    fullSlide();
    fullSlide(); // the handle is confirmed and busy: nothing more
    fireEvent.keyDown(screen.getByTestId('action-slide-handle'), { key: 'End' });
    expect(screen.getByTestId('action-busy')).toBeTruthy();
    await screen.findByText('Comando de bloqueio enviado');
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('/api/commands/send');
    expect(JSON.parse(String(calls[0].init.body))).toEqual({
      id: 0,
      description: null,
      deviceId: 9,
      type: 'engineStop',
      textChannel: false,
      attributes: {},
    });
    await waitFor(() => expect(screen.queryByTestId('action-question')).toBeNull());
  });

  it('cancel before the delay ends sends nothing', async () => {
    stubFetch(() => json({}));
    renderWithProviders(<DeviceActionsHost />);
    await open({ kind: 'unlock', device });
    fullSlide();
    fireEvent.click(screen.getByTestId('action-cancel'));
    await new Promise((r) => setTimeout(r, 700));
    expect(calls).toHaveLength(0);
  });

  it('unlock answered 202 is pending in the dialog and the store', async () => {
    stubFetch(() => json({ id: 5, deviceId: 9, type: 'engineResume' }, 202));
    renderWithProviders(<DeviceActionsHost />);
    await open({ kind: 'unlock', device });
    fullSlide();
    await screen.findByTestId('action-pending');
    expect(usePendingCommands.getState().byDevice[9]?.map((c) => c.type)).toEqual(['engineResume']);
    expect(screen.getByText('Comando pendente até o dispositivo ficar online')).toBeTruthy();
  });

  it('a failure shows the SPEC §8 text and resets the handle', async () => {
    stubFetch(() => text('boom', 400));
    renderWithProviders(<DeviceActionsHost />);
    await open({ kind: 'block', device });
    fullSlide();
    await screen.findByText('Erro ao enviar comando');
    await waitFor(() => expect(screen.getByTestId('action-slide-handle').getAttribute('data-x')).toBe('2'));
  });

  it('delete acts at once: DELETE /api/devices/9 and the device leaves the live store', async () => {
    stubFetch(() => new Response(null, { status: 204 }));
    renderWithProviders(<DeviceActionsHost />, { route: '/devices/9' });
    await open({ kind: 'delete', device });
    fullSlide();
    await screen.findByText('Dispositivo excluído');
    expect(calls.map((c) => [c.init.method, c.url])).toEqual([['DELETE', '/api/devices/9']]);
    expect(useLive.getState().devices[9]).toBeUndefined();
  });

  it('anchor: cancelling shows the cancel text', async () => {
    stubFetch(() => json([]));
    renderWithProviders(<DeviceActionsHost />);
    await open({ kind: 'anchor', anchor: 'enable', device });
    expect(screen.getByTestId('action-question').textContent).toBe(
      'Deseja realmente ativar a âncora do veículo Caminhão 9?',
    );
    fireEvent.click(screen.getByTestId('action-cancel'));
    await screen.findByText('Ação cancelada pelo usuário');
    expect(calls).toHaveLength(0);
  });

  it('readonly and limitCommands users are refused: alert, disabled handle, nothing sent', async () => {
    stubFetch(() => json({}));
    for (const u of [user({ readonly: true }), user({ limitCommands: true })]) {
      useSession.setState({ user: u });
      renderWithProviders(<DeviceActionsHost />);
      await open({ kind: 'block', device });
      expect(screen.getByTestId('action-denied')).toBeTruthy();
      fullSlide();
      fireEvent.keyDown(screen.getByTestId('action-slide-handle'), { key: 'End' });
      cleanup();
    }
    await new Promise((r) => setTimeout(r, 700));
    expect(calls).toHaveLength(0);
  });

  const REFUSAL =
    'Bloqueio recusado para Caminhão 9: o veículo está a 30 km/h, acima do limite de 20 km/h para bloquear';

  it('interlock: a 403 refusal shows the server text in the dialog (not the generic error); no force for a non-admin', async () => {
    stubFetch(() => text(`SecurityException: ${REFUSAL}`, 403));
    renderWithProviders(<DeviceActionsHost />);
    await open({ kind: 'block', device });
    fullSlide();
    expect((await screen.findByTestId('action-refused')).textContent).toBe(REFUSAL);
    expect(screen.queryByText('Erro ao enviar comando')).toBeNull();
    expect(screen.queryByTestId('action-force')).toBeNull();
    expect(new Headers(calls[0].init.headers).get('accept-language')).toBe('pt-BR');
    // the regular slide is back for another try
    await waitFor(() => expect(screen.getByTestId('action-slide-handle').getAttribute('data-x')).toBe('2'));
  });

  it('interlock: an administrator gets a warned "block anyway" slide that sends attributes.force', async () => {
    useSession.setState({ user: user({ administrator: true }) });
    let n = 0;
    stubFetch(() => (++n === 1 ? text(`SecurityException: ${REFUSAL}`, 403) : json({ type: 'engineStop' })));
    renderWithProviders(<DeviceActionsHost />);
    await open({ kind: 'block', device });
    fullSlide();
    expect((await screen.findByTestId('action-force-warning')).textContent).toContain('Caminhão 9');
    expect(screen.queryByTestId('action-slide-handle')).toBeNull();
    fullSlide('action-force-slide');
    await screen.findByText('Comando de bloqueio enviado');
    expect(calls).toHaveLength(2);
    expect(JSON.parse(String(calls[0].init.body)).attributes).toEqual({});
    expect(JSON.parse(String(calls[1].init.body))).toMatchObject({
      type: 'engineStop',
      attributes: { force: true },
    });
  });

  it('interlock: an old newest speed shows its age in the dialog and the block is still sent', async () => {
    useSession.setState({ user: user({ attributes: { speedUnit: 'kmh' } }) });
    const at = (minutesAgo: number) =>
      ({
        id: 1,
        deviceId: 9,
        fixTime: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
        speed: kmhToKnots(30),
        latitude: 0,
        longitude: 0,
        attributes: {},
      }) as unknown as Position;
    try {
      // a fresh speed: nothing to say
      useLive.setState({ positions: { 9: at(1) } });
      stubFetch(() => json({ id: 0, deviceId: 9, type: 'engineStop' }));
      renderWithProviders(<DeviceActionsHost />);
      await open({ kind: 'block', device });
      expect(screen.queryByTestId('action-speed-age')).toBeNull();
      cleanup();

      useLive.setState({ positions: { 9: at(12) } });
      renderWithProviders(<DeviceActionsHost />);
      await open({ kind: 'block', device });
      const note = screen.getByTestId('action-speed-age').textContent ?? '';
      expect(note).toContain('há 12 minutos');
      expect(note).toContain('30 km/h');
      fullSlide();
      await screen.findByText('Comando de bloqueio enviado');
      expect(calls).toHaveLength(1);
    } finally {
      useLive.setState({ positions: {} });
    }
  });
});
