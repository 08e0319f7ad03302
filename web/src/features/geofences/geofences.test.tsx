// The /geofence list (anchors left out, sizes, search, permissions, empty state), the form dialog (SPEC §5 name
// message, the body it saves) and the drawing flow through the mapDraw store (Concluir / Cancel / Escape).
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emptyGeofenceForm, type Attributes, type Geofence, type User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders } from '../../components/testing.tsx';
import { useDialogs } from '../../shell/dialogs.ts';
import { useUi } from '../../shell/ui.ts';
import { dispatchMapDraw, finishMapDraw, stopMapDraw, useMapDraw } from '../../components/mapDraw.ts';
import { drawGeoJson } from '../../components/mapDrawLayer.ts';
import { useSession } from '../../stores/session.ts';
import { GeofenceFormDialog } from './GeofenceFormDialog.tsx';
import { GeofencesPage } from './GeofencesPage.tsx';
import { startGeofenceDrawing } from './drawing.ts';

const fence = (id: number, name: string, area: string, attributes: Attributes = {}): Geofence => ({
  id,
  name,
  description: null,
  calendarId: 0,
  area,
  attributes,
});
const FENCES = [
  fence(1, 'Pátio', 'CIRCLE (-23.55 -46.63, 1000)', { color: '#e53935' }),
  fence(2, 'Anchor Caminhão', 'CIRCLE (-23.5 -46.6, 150)', { isAnchor: true, deviceId: 4 }),
  fence(3, 'Marginal', 'LINESTRING (0 0, 0 0.01)'),
  fence(4, 'Quadra', 'POLYGON ((0 0, 0 0.01, 0.01 0.01, 0.01 0, 0 0))'),
];
const user = (extra: Partial<User> = {}) =>
  ({ id: 1, name: 'u', administrator: true, attributes: {}, ...extra }) as User;

let calls: { url: string; init: RequestInit }[] = [];
function stubFetch(handler: (url: string, init: RequestInit) => Response) {
  const f = fakeFetch(handler);
  calls = f.calls;
  vi.stubGlobal('fetch', f.fn);
}

beforeEach(() => {
  useSession.setState({ user: user(), server: null, isPlus: false });
  useDialogs.setState({ open: [] });
  useUi.getState().setMapEditing(null);
  stopMapDraw();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('GeofencesPage', () => {
  it('lists normal fences by name with km² (2 decimals) or length, never anchors', async () => {
    stubFetch(() => json(FENCES));
    renderWithProviders(<GeofencesPage />);
    await screen.findByText('Pátio');
    const rows = screen.getAllByTestId('geofence-row');
    expect(rows.map((r) => within(r).getByTestId('geofence-name-text').textContent)).toEqual([
      'Marginal',
      'Pátio',
      'Quadra',
    ]);
    expect(screen.queryByText('Anchor Caminhão')).toBeNull();
    const measure = (name: string) =>
      within(screen.getByText(name).closest('[data-testid=geofence-row]') as HTMLElement).getByTestId(
        'geofence-measure',
      ).textContent;
    expect(measure('Pátio')).toBe('3,14 km²');
    expect(measure('Quadra')).toBe('1,24 km²');
    expect(measure('Marginal')).toBe('1,11 km');
    fireEvent.change(screen.getByTestId('geofence-search'), { target: { value: 'patio' } });
    await waitFor(() => expect(screen.getAllByTestId('geofence-row')).toHaveLength(1));
    fireEvent.change(screen.getByTestId('geofence-search'), { target: { value: 'nada' } });
    expect(await screen.findByText('Nenhuma cerca encontrada para esta busca.')).toBeTruthy();
  });

  it('shows the empty state when there are only anchors', async () => {
    stubFetch(() => json([FENCES[1]]));
    renderWithProviders(<GeofencesPage />);
    expect(await screen.findByTestId('geofences-empty')).toHaveProperty(
      'textContent',
      'Nenhuma cerca cadastrada. Crie uma com o botão Nova cerca.',
    );
  });

  it('a readonly user is not pointed to a "Nova cerca" button it does not have (issue #28)', async () => {
    useSession.setState({ user: user({ administrator: false, readonly: true }) });
    stubFetch(() => json([FENCES[1]]));
    renderWithProviders(<GeofencesPage />);
    expect(await screen.findByTestId('geofences-empty')).toHaveProperty(
      'textContent',
      'Nenhuma cerca cadastrada.',
    );
    expect(screen.queryByTestId('geofence-add')).toBeNull();
  });

  it('a readonly user gets no create, edit or delete', async () => {
    useSession.setState({ user: user({ administrator: false, readonly: true }) });
    stubFetch(() => json(FENCES));
    renderWithProviders(<GeofencesPage />);
    await screen.findByText('Pátio');
    expect(screen.queryByTestId('geofence-add')).toBeNull();
    expect(screen.queryByTestId('geofence-edit')).toBeNull();
    expect(screen.queryByTestId('geofence-delete')).toBeNull();
  });

  it('delete asks first, then sends DELETE /api/geofences/{id}', async () => {
    stubFetch((url, init) => (init.method === 'DELETE' ? new Response(null, { status: 204 }) : json(FENCES)));
    renderWithProviders(<GeofencesPage />);
    await screen.findByText('Pátio');
    const row = screen.getByText('Pátio').closest('[data-testid=geofence-row]') as HTMLElement;
    fireEvent.click(within(row).getByTestId('geofence-delete'));
    expect(await screen.findByText('Deseja realmente excluir a cerca Pátio?')).toBeTruthy();
    expect(calls.some((c) => c.init.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByTestId('geofence-delete-yes'));
    await waitFor(() => expect(calls.find((c) => c.init.method === 'DELETE')?.url).toBe('/api/geofences/1'));
  });
});

describe('GeofenceFormDialog', () => {
  it('an empty name shows the SPEC §5 message; a filled form POSTs the geofence', async () => {
    stubFetch((url, init) =>
      url.startsWith('/api/calendars')
        ? json([{ id: 7, name: 'Horário comercial', data: '', attributes: {} }])
        : json({ ...JSON.parse(String(init.body)), id: 12 }),
    );
    const onClose = vi.fn();
    renderWithProviders(
      <GeofenceFormDialog
        onClose={onClose}
        props={{ form: emptyGeofenceForm('CIRCLE (-23.55 -46.63, 1000)') }}
      />,
    );
    expect(await screen.findByText('Forma: Círculo · 3,14 km²')).toBeTruthy();
    fireEvent.click(screen.getByTestId('geofence-save'));
    expect(await screen.findByText('o campo nome é obrigatório')).toBeTruthy();
    expect(calls.filter((c) => c.init.method === 'POST')).toHaveLength(0);
    fireEvent.change(screen.getByTestId('geofence-name'), { target: { value: 'Depósito' } });
    // pt-BR with no unit chosen: the limit is typed in km/h and stored in knots (issue #29)
    fireEvent.change(screen.getByTestId('geofence-speed-limit'), { target: { value: '18.52' } });
    fireEvent.click(screen.getByTestId('geofence-lock-exit'));
    fireEvent.click(screen.getByTestId('geofence-save'));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const post = calls.find((c) => c.init.method === 'POST');
    expect(post?.url).toBe('/api/geofences');
    expect(JSON.parse(String(post?.init.body))).toEqual({
      id: 0,
      name: 'Depósito',
      description: null,
      calendarId: 0,
      area: 'CIRCLE (-23.55 -46.63, 1000)',
      attributes: { color: '#1976d2', speedLimit: 10, 'rastro.lockOnExit': true },
    });
  });
});

/** The one open dialog, which must be the geofence form. */
function geofenceForm() {
  const [dialog] = useDialogs.getState().open;
  if (dialog?.name !== 'geofenceForm') throw new Error(`expected the geofence form, got ${dialog?.name}`);
  return dialog;
}

describe('drawing flow', () => {
  const P = (latitude: number, longitude: number) => ({ latitude, longitude });

  it('Concluir before the shape is complete keeps drawing; afterwards the form opens with the area', () => {
    act(() => startGeofenceDrawing(emptyGeofenceForm(), 'polygon'));
    const editing = useUi.getState().mapEditing;
    expect(editing).not.toBeNull();
    expect(useMapDraw.getState().hint).toMatch(/^[^⟦]{20,}$/); // the instruction for a polygon
    dispatchMapDraw({ type: 'click', at: P(0, 0) });
    dispatchMapDraw({ type: 'click', at: P(0, 1) });
    act(() => editing!.onFinish());
    expect(useUi.getState().mapEditing).not.toBeNull(); // 2 vertices: not a polygon yet
    dispatchMapDraw({ type: 'click', at: P(1, 1) });
    expect(drawGeoJson(useMapDraw.getState().draw).handles.features).toHaveLength(3);
    act(() => editing!.onFinish());
    expect(useUi.getState().mapEditing).toBeNull();
    expect(useMapDraw.getState().draw).toBeNull();
    const dialog = geofenceForm();
    expect(dialog.props.form.area).toBe('POLYGON ((0 0, 0 1, 1 1, 0 0))');
  });

  it('Escape discards a new drawing; cancelling "edit shape" goes back to the form unchanged', () => {
    act(() => startGeofenceDrawing(emptyGeofenceForm(), 'circle'));
    dispatchMapDraw({ type: 'click', at: P(0, 0) });
    act(() => useMapDraw.getState().onEscape!());
    expect(useUi.getState().mapEditing).toBeNull();
    expect(useDialogs.getState().open).toHaveLength(0);

    const form = { ...emptyGeofenceForm('CIRCLE (1 2, 300)'), id: 5, name: 'Velha' };
    act(() => startGeofenceDrawing(form, 'circle', true));
    expect(useMapDraw.getState().draw?.edit.step).toBe(3);
    dispatchMapDraw({ type: 'drag', handle: { kind: 'radius' }, at: P(1, 2.01) });
    act(() => useUi.getState().mapEditing!.onCancel());
    expect(geofenceForm().props.form).toEqual(form);
    expect(finishMapDraw()).toBeNull();
  });
});
