// The catalogue scaffold (useCatalogue + CatalogueList + DataTable + CatalogueDialog): search folds accents,
// headers sort, long lists render only their visible rows, actions follow the viewer's rights (read-only: none),
// the form shows the parse errors and the server's translated refusal, delete asks first.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseGroupForm, type Group, type GroupFormValues, type User } from '@rastro/domain';
import { TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { fakeFetch, json, renderWithProviders, text } from './testing.tsx';
import { useSession } from '../stores/session.ts';
import { CatalogueDialog, CatalogueForm } from './CatalogueDialog.tsx';
import { CatalogueList } from './CatalogueList.tsx';
import { useCatalogue } from './useCatalogue.ts';

const g = (id: number, name: string): Group => ({ id, name, groupId: 0, attributes: {} });
let LIST: Group[] = [];
let answer: (init: RequestInit) => Response = () => json({});
let calls: { url: string; init: RequestInit }[] = [];
const admin = { id: 1, name: 'u', administrator: true, attributes: {} } as unknown as User;

beforeEach(() => {
  LIST = [g(1, 'Ônibus'), g(2, 'Caminhões'), g(3, 'Avulsos')];
  answer = (init) => json({ ...JSON.parse(String(init.body)), id: 9 });
  useSession.setState({ user: admin, server: null, isPlus: false });
  const f = fakeFetch((_url, init) =>
    init.method === 'DELETE'
      ? new Response(null, { status: 204 })
      : init.method && init.method !== 'GET'
        ? answer(init)
        : json(LIST),
  );
  calls = f.calls;
  vi.stubGlobal('fetch', f.fn);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const newForm = (): GroupFormValues => ({ id: 0, name: '', groupId: 0, attributes: [] });

function Manager() {
  const c = useCatalogue<'groups', GroupFormValues>({
    resource: 'groups',
    ns: 'groups',
    area: 'groups',
    parse: (form, items) => parseGroupForm(form, items),
  });
  return (
    <CatalogueDialog c={c} menu="account" onClose={() => undefined} size={[700, 500]} testId="m-dialog">
      {c.editing ? (
        <CatalogueForm c={c} prefix="m" testId="m-form">
          <TextInput
            label="name"
            value={c.editing.name}
            error={c.err('name')}
            onChange={(e) => c.edit({ name: e.currentTarget.value })}
            data-testid="m-name"
          />
        </CatalogueForm>
      ) : (
        <CatalogueList
          c={c}
          prefix="m"
          plural="ms"
          columns={[{ key: 'name', header: 'Nome', cell: (r) => r.name, sortBy: (r) => r.name }]}
          searchIn={(r) => [r.name]}
          newForm={newForm}
          toForm={(r) => ({ ...newForm(), id: r.id, name: r.name })}
        />
      )}
    </CatalogueDialog>
  );
}

const names = () => screen.getAllByTestId('m-row').map((r) => r.textContent);

describe('catalogue scaffold', () => {
  it('searches without accents and sorts by a header, both ways', async () => {
    renderWithProviders(<Manager />);
    await screen.findByText('Avulsos');
    expect(names()).toEqual(['Ônibus', 'Caminhões', 'Avulsos']);
    fireEvent.click(screen.getByTestId('sort-name'));
    expect(names()).toEqual(['Avulsos', 'Caminhões', 'Ônibus']);
    fireEvent.click(screen.getByTestId('sort-name'));
    expect(names()).toEqual(['Ônibus', 'Caminhões', 'Avulsos']);
    fireEvent.change(screen.getByTestId('ms-search'), { target: { value: 'onib' } });
    expect(names()).toEqual(['Ônibus']);
    fireEvent.change(screen.getByTestId('ms-search'), { target: { value: 'zzz' } });
    expect(screen.getByTestId('ms-empty').textContent).toBe('Nenhum grupo encontrado');
  });

  it('renders only the visible rows of a long list', async () => {
    LIST = Array.from({ length: 2000 }, (_, i) => g(i + 1, `Grupo ${i + 1}`));
    // jsdom lays nothing out: the scroll box reports a 600 px window
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(600);
    renderWithProviders(<Manager />);
    await screen.findByText('Grupo 1');
    expect(screen.getByTestId('ms-table').dataset.rows).toBe('2000');
    const shown = screen.getAllByTestId('m-row').length;
    expect(shown).toBeGreaterThan(5);
    expect(shown).toBeLessThan(100);
  });

  it('shows cards with their actions at phone width', async () => {
    const wide = window.matchMedia;
    window.matchMedia = ((query: string) => ({ ...wide(query), matches: true })) as typeof window.matchMedia;
    try {
      renderWithProviders(<Manager />);
      await screen.findByText('Avulsos');
      const table = screen.getByTestId('ms-table');
      expect(table.tagName).toBe('DIV');
      expect(within(table).getAllByTestId('m-row')).toHaveLength(3);
      expect(within(table).getAllByTestId('m-edit')).toHaveLength(3);
      expect(within(table).getAllByTestId('m-delete')).toHaveLength(3);
    } finally {
      window.matchMedia = wide;
    }
  });

  it('offers no add, edit or delete to a read-only user', async () => {
    useSession.setState({ user: { ...admin, administrator: false, readonly: true } as User });
    renderWithProviders(<Manager />);
    await screen.findByText('Avulsos');
    expect(screen.queryByTestId('m-add')).toBeNull();
    expect(screen.queryByTestId('m-edit')).toBeNull();
    expect(screen.queryByTestId('m-delete')).toBeNull();
  });

  it('shows the parse errors, then the server refusal translated, and saves', async () => {
    const shown = vi.spyOn(notifications, 'show');
    renderWithProviders(<Manager />);
    fireEvent.click(await screen.findByTestId('m-add'));
    fireEvent.click(screen.getByTestId('m-save'));
    expect(await screen.findByText('O campo nome é obrigatório')).toBeTruthy();
    expect(calls.some((c) => c.init.method === 'POST')).toBe(false);
    answer = () => text('SecurityException: Write access denied', 403);
    fireEvent.change(screen.getByTestId('m-name'), { target: { value: 'Norte' } });
    fireEvent.click(screen.getByTestId('m-save'));
    await waitFor(() => expect(shown).toHaveBeenCalled());
    expect(shown.mock.calls[0][0].message).toMatch(/^Não foi possível salvar o grupo: \S/);
    answer = (init) => json({ ...JSON.parse(String(init.body)), id: 9 });
    fireEvent.click(screen.getByTestId('m-save'));
    await waitFor(() => expect(screen.queryByTestId('m-form')).toBeNull());
    const post = calls.filter((c) => c.init.method === 'POST').at(-1)!;
    expect(JSON.parse(String(post.init.body))).toMatchObject({ name: 'Norte', groupId: 0 });
  });

  it('deletes only after the confirmation', async () => {
    renderWithProviders(<Manager />);
    await screen.findByText('Avulsos');
    const row = screen.getAllByTestId('m-row').find((r) => r.textContent === 'Avulsos')!;
    fireEvent.click(within(row).getByTestId('m-delete'));
    expect(screen.getByTestId('m-delete-confirm').textContent).toContain('Avulsos');
    expect(calls.some((c) => c.init.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByTestId('m-delete-yes'));
    await waitFor(() => expect(calls.some((c) => c.init.method === 'DELETE')).toBe(true));
    expect(calls.find((c) => c.init.method === 'DELETE')!.url).toMatch(/\/api\/groups\/3$/);
  });
});
