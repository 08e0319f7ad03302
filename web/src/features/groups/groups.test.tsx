// /groups: the indented tree, search with ancestors, parent choices without the group and its subgroups, the body
// it saves (PUT with groupId and typed attributes), and no create/edit/delete for a read-only user.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Group, User } from '@rastro/domain';
import { fakeFetch, json, renderWithProviders } from '../../components/testing.tsx';
import { useSession } from '../../stores/session.ts';
import { GroupsPage } from './GroupsPage.tsx';

const g = (id: number, name: string, groupId = 0, attributes: Group['attributes'] = {}): Group => ({
  id,
  name,
  groupId,
  attributes,
});
const GROUPS = [g(1, 'Frota'), g(2, 'Norte', 1, { speedLimit: 80 }), g(3, 'Caminhões', 2), g(4, 'Avulsos')];
const user = (extra: Partial<User> = {}) =>
  ({ id: 1, name: 'u', administrator: true, attributes: {}, ...extra }) as User;

let calls: { url: string; init: RequestInit }[] = [];
beforeEach(() => {
  useSession.setState({ user: user(), server: null, isPlus: false });
  const f = fakeFetch((url, init) =>
    init.method === 'PUT' ? json(JSON.parse(String(init.body))) : json(GROUPS),
  );
  calls = f.calls;
  vi.stubGlobal('fetch', f.fn);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const rowNames = () => screen.getAllByTestId('group-row').map((r) => [r.textContent, r.dataset.depth]);

describe('GroupsPage', () => {
  it('shows the tree indented by parent and filters with ancestors kept', async () => {
    renderWithProviders(<GroupsPage />);
    await screen.findByText('Caminhões');
    expect(rowNames()).toEqual([
      ['Avulsos', '0'],
      ['Frota', '0'],
      ['Norte', '1'],
      ['Caminhões', '2'],
    ]);
    fireEvent.change(screen.getByTestId('groups-search'), { target: { value: 'caminhoes' } });
    expect(rowNames().map((r) => r[0])).toEqual(['Frota', 'Norte', 'Caminhões']);
  });

  it('edits a group: parent choices leave out itself and its subgroups; PUT keeps typed attributes', async () => {
    renderWithProviders(<GroupsPage />);
    await screen.findByText('Norte');
    const norte = screen.getAllByTestId('group-row').find((r) => r.textContent === 'Norte')!;
    fireEvent.click(within(norte).getByTestId('group-edit'));
    const form = await screen.findByTestId('group-form');
    expect(within(form).getByTestId('attribute-value')).toHaveProperty('value', '80');
    fireEvent.click(within(form).getByTestId('group-parent'));
    const options = (await screen.findAllByRole('option', { hidden: true })).map((o) => o.textContent);
    expect(options).toEqual(['Avulsos', 'Frota']);
    fireEvent.click(screen.getByRole('option', { name: 'Avulsos', hidden: true }));
    fireEvent.click(within(form).getByTestId('group-save'));
    await waitFor(() => expect(calls.some((c) => c.init.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.init.method === 'PUT')!;
    expect(put.url).toMatch(/\/api\/groups\/2$/);
    expect(JSON.parse(String(put.init.body))).toEqual({
      id: 2,
      name: 'Norte',
      groupId: 4,
      attributes: { speedLimit: 80 },
    });
  });

  it('requires a name', async () => {
    renderWithProviders(<GroupsPage />);
    fireEvent.click(await screen.findByTestId('group-add'));
    fireEvent.click(await screen.findByTestId('group-save'));
    expect(await screen.findByText('O campo nome é obrigatório')).toBeTruthy();
    expect(calls.some((c) => c.init.method === 'POST')).toBe(false);
  });

  it('a read-only user gets no create, edit or delete', async () => {
    useSession.setState({ user: user({ administrator: false, readonly: true }) });
    renderWithProviders(<GroupsPage />);
    await screen.findByText('Frota');
    expect(screen.queryByTestId('group-add')).toBeNull();
    expect(screen.queryAllByTestId('group-edit')).toHaveLength(0);
    expect(screen.queryAllByTestId('group-delete')).toHaveLength(0);
  });
});
