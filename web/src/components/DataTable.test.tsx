// The table's phone layout (issue #33): one card per row, each column after the first as "header: value"; a column
// whose header is an icon names itself in words there (its cardHeader), never a bare icon followed by ":".
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable } from './DataTable.tsx';
import { renderWithProviders } from './testing.tsx';

vi.mock('./useIsMobile.ts', () => ({ useIsMobile: () => true }));

afterEach(cleanup);

type Row = { name: string; always: boolean };

describe('DataTable cards at phone width', () => {
  it('writes each column as "header: value", in words where the header is an icon', () => {
    renderWithProviders(
      <DataTable<Row>
        cards
        data-testid="table"
        rows={[{ name: 'Alarme', always: true }]}
        rowKey={(r) => r.name}
        columns={[
          { key: 'name', header: 'Nome', cell: (r) => r.name },
          { key: 'color', header: 'Cor', cell: () => 'vermelho' },
          {
            key: 'always',
            header: <span role="img" aria-label="Todos os dispositivos" />,
            cardHeader: 'Todos os dispositivos',
            cell: (r) => (r.always ? 'sim' : 'não'),
          },
        ]}
      />,
    );
    const card = screen.getByTestId('table');
    expect(card.textContent).toContain('Alarme');
    expect(card.textContent).toContain('Cor: vermelho');
    expect(card.textContent).toContain('Todos os dispositivos: sim');
  });
});
