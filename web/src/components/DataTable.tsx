// A plain table drawn from column descriptions (issue #33): a header cell and a body cell per column, row keys and
// attributes from the caller, optionally in a sideways-scrolling container. For lists without the catalogue's
// actions, sorting and cards (components/CatalogueTable.tsx): reports, logs, invoices, figures.
import { Table, type TableProps, type TableTdProps, type TableTrProps } from '@mantine/core';
import type { Key, ReactNode } from 'react';

/** Props of a cell or row, with its data attributes and test id. */
type Attrs<P> = P & { [data: `data-${string}`]: string | number | boolean | undefined };

export interface DataColumn<T> {
  key: string;
  header?: ReactNode;
  cell(row: T, index: number): ReactNode;
  /** Props of the column's header and body cells (alignment, `data-key`). */
  props?: Attrs<Pick<TableTdProps, 'ta' | 'w' | 'style'>>;
  /** Props of one body cell (its colour, test id, data attributes), after the column's. */
  cellProps?(row: T): Attrs<TableTdProps>;
}

export function DataTable<T>({
  rows,
  columns,
  rowKey,
  rowProps,
  scrollMinWidth,
  ...table
}: {
  rows: readonly T[];
  columns: DataColumn<T>[];
  rowKey(row: T, index: number): Key;
  rowProps?(row: T, index: number): Attrs<TableTrProps>;
  /** Scrolls sideways below this width. */
  scrollMinWidth?: number;
} & Attrs<TableProps>) {
  const body = (
    <Table {...table}>
      <Table.Thead>
        <Table.Tr>
          {columns.map((c) => (
            <Table.Th key={c.key} {...c.props}>
              {c.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row, i) => (
          <Table.Tr key={rowKey(row, i)} {...rowProps?.(row, i)}>
            {columns.map((c) => (
              <Table.Td key={c.key} {...c.props} {...c.cellProps?.(row)}>
                {c.cell(row, i)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  return scrollMinWidth ? (
    <Table.ScrollContainer minWidth={scrollMinWidth}>{body}</Table.ScrollContainer>
  ) : (
    body
  );
}
