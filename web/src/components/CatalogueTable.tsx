// The rows of a catalogue manager (issue #33): a table whose headers sort (click again to reverse), virtualised
// once the list is long (only the visible rows are in the DOM), and cards at phone width so every action stays in
// view at 390 px. Row test ids and data attributes are the manager's own (e2e specs find rows by them). A row may
// carry a detail (the scores' breakdown) drawn under it, full width; such a table is never virtualised.
import { Box, Group, Paper, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, useMemo, useRef, useState, type ReactNode } from 'react';
import { useIsMobile } from './useIsMobile.ts';

export interface CatalogueColumn<T> {
  key: string;
  header: ReactNode;
  cell(row: T): ReactNode;
  /** The value the column sorts by; a column without one does not sort. */
  sortBy?(row: T): string | number;
  testId?: string;
}

export interface CatalogueTableProps<T extends { id: number }> {
  rows: T[];
  columns: CatalogueColumn<T>[];
  testId: string;
  rowTestId: string;
  rowAttrs?(row: T): Record<string, string | number>;
  actions?(row: T): ReactNode;
  /** What an opened row shows under it (null: nothing). */
  detail?(row: T): ReactNode;
  hideHeader?: boolean;
}

/** Lists longer than this render only their visible rows. */
export const VIRTUAL_FROM = 100;
const ROW_HEIGHT = 41;

type Sort = { key: string; dir: 1 | -1 } | null;

function sortRows<T>(rows: T[], columns: CatalogueColumn<T>[], sort: Sort): T[] {
  const by = sort && columns.find((c) => c.key === sort.key)?.sortBy;
  if (!sort || !by) return rows;
  return [...rows].sort((a, b) => {
    const x = by(a);
    const y = by(b);
    const d = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return d * sort.dir;
  });
}

function HeaderCell<T>({ col, sort, onSort }: { col: CatalogueColumn<T>; sort: Sort; onSort(): void }) {
  if (!col.sortBy) return <Table.Th>{col.header}</Table.Th>;
  const on = sort?.key === col.key;
  return (
    <Table.Th aria-sort={on ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={onSort} fz="sm" fw={700} data-testid={`sort-${col.key}`}>
        <Group gap={4} wrap="nowrap">
          {col.header}
          {on && (sort.dir === 1 ? <IconArrowUp size={12} /> : <IconArrowDown size={12} />)}
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

export function CatalogueTable<T extends { id: number }>(props: CatalogueTableProps<T>) {
  const { columns, testId, rowTestId, rowAttrs, actions, detail } = props;
  const mobile = useIsMobile();
  const [sort, setSort] = useState<Sort>(null);
  const rows = useMemo(() => sortRows(props.rows, columns, sort), [props.rows, columns, sort]);
  const scroll = useRef<HTMLDivElement>(null);
  const virtual = !detail && rows.length > VIRTUAL_FROM;
  const v = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scroll.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const toggle = (key: string) =>
    setSort((s) => (s?.key === key ? { key, dir: s.dir === 1 ? -1 : 1 } : { key, dir: 1 }));

  if (mobile)
    return (
      <Stack gap="xs" data-testid={testId}>
        {rows.map((row) => (
          <Paper key={row.id} withBorder p="xs" data-testid={rowTestId} {...rowAttrs?.(row)}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={2} style={{ minWidth: 0 }}>
                {columns.map((col, i) => (
                  <Text
                    key={col.key}
                    component="div"
                    size={i ? 'xs' : 'sm'}
                    fw={i ? undefined : 600}
                    data-testid={col.testId}
                  >
                    {i > 0 && col.header && <>{col.header}: </>}
                    {col.cell(row)}
                  </Text>
                ))}
              </Stack>
              {actions?.(row)}
            </Group>
            {detail?.(row)}
          </Paper>
        ))}
      </Stack>
    );

  const items = virtual ? v.getVirtualItems() : rows.map((_, index) => ({ index, start: 0, end: 0 }));
  const padTop = virtual && items.length ? items[0].start : 0;
  const padBottom = virtual && items.length ? v.getTotalSize() - items[items.length - 1].end : 0;
  const body = (
    <Table striped fz="sm" data-testid={testId} data-rows={rows.length}>
      {!props.hideHeader && (
        <Table.Thead>
          <Table.Tr>
            {columns.map((col) => (
              <HeaderCell key={col.key} col={col} sort={sort} onSort={() => toggle(col.key)} />
            ))}
            {actions && <Table.Th />}
          </Table.Tr>
        </Table.Thead>
      )}
      <Table.Tbody>
        {padTop > 0 && <tr style={{ height: padTop }} aria-hidden />}
        {items.map(({ index }) => {
          const row = rows[index];
          const more = detail?.(row);
          return (
            <Fragment key={row.id}>
              <Table.Tr data-testid={rowTestId} {...rowAttrs?.(row)}>
                {columns.map((col) => (
                  <Table.Td key={col.key} data-testid={col.testId}>
                    {col.cell(row)}
                  </Table.Td>
                ))}
                {actions && <Table.Td>{actions(row)}</Table.Td>}
              </Table.Tr>
              {more && (
                <Table.Tr>
                  <Table.Td colSpan={columns.length + (actions ? 1 : 0)}>{more}</Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          );
        })}
        {padBottom > 0 && <tr style={{ height: padBottom }} aria-hidden />}
      </Table.Tbody>
    </Table>
  );
  return virtual ? (
    <Box ref={scroll} mah="60vh" style={{ overflow: 'auto' }} data-testid={`${testId}-scroll`}>
      {body}
    </Box>
  ) : (
    body
  );
}
