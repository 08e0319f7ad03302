// The one table of web/src (issue #33), drawn from column descriptions: a header cell and a body cell per column,
// row keys and attributes from the caller. A column with `sortBy` sorts when its header is clicked (again to
// reverse). The catalogue managers and the scores ask for `cards`: one card per row at phone width, so every action
// stays in view at 390 px, and a long list (over VIRTUAL_FROM) renders only its visible rows. A row may carry a
// detail (the scores' breakdown) drawn under it, full width; such a table is never virtualised.
import {
  Box,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  UnstyledButton,
  type TableProps,
  type TableTdProps,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Fragment, useMemo, useRef, useState, type CSSProperties, type Key, type ReactNode } from 'react';
import { useIsMobile } from './useIsMobile.ts';

/** Props of a cell or row, with its data attributes and test id. */
type Attrs<P> = P & { [data: `data-${string}`]: string | number | boolean | undefined };
/** What a row may carry: a table row's props, or a card's at phone width. */
type RowProps = Attrs<{ bg?: string; style?: CSSProperties; onClick?(): void }>;

export interface DataColumn<T> {
  key: string;
  header?: ReactNode;
  /** The header on a phone's card when the table's is an icon (a card reads "header: value"). */
  cardHeader?: string;
  cell(row: T, index: number): ReactNode;
  /** The value the column sorts by; a column without one does not sort. */
  sortBy?(row: T): string | number;
  testId?: string;
  /** Props of the column's header and body cells (alignment, `data-key`). */
  props?: Attrs<Pick<TableTdProps, 'ta' | 'w' | 'style'>>;
  /** Props of one body cell (its colour, test id, data attributes), after the column's. */
  cellProps?(row: T): Attrs<TableTdProps>;
}

export interface DataTableProps<T> extends Attrs<TableProps> {
  rows: readonly T[];
  columns: DataColumn<T>[];
  rowKey(row: T, index: number): Key;
  rowProps?(row: T, index: number): RowProps;
  /** Scrolls sideways below this width. */
  scrollMinWidth?: number;
  /** One card per row at phone width; long lists render only their visible rows. */
  cards?: boolean;
  /** The last column: the row's buttons. */
  actions?(row: T): ReactNode;
  /** What an opened row shows under it (null: nothing). */
  detail?(row: T): ReactNode;
  hideHeader?: boolean;
  caption?: ReactNode;
}

/** Lists longer than this render only their visible rows (a table with `cards`). */
export const VIRTUAL_FROM = 100;
const ROW_HEIGHT = 41;

type Sort = { key: string; dir: 1 | -1 } | null;

function sortRows<T>(rows: readonly T[], columns: DataColumn<T>[], sort: Sort): readonly T[] {
  const by = sort && columns.find((c) => c.key === sort.key)?.sortBy;
  if (!sort || !by) return rows;
  return [...rows].sort((a, b) => {
    const x = by(a);
    const y = by(b);
    const d = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return d * sort.dir;
  });
}

function HeaderCell<T>({ col, sort, onSort }: { col: DataColumn<T>; sort: Sort; onSort(): void }) {
  if (!col.sortBy) return <Table.Th {...col.props}>{col.header}</Table.Th>;
  const on = sort?.key === col.key;
  return (
    <Table.Th aria-sort={on ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'} {...col.props}>
      <UnstyledButton onClick={onSort} fz="sm" fw={700} data-testid={`sort-${col.key}`}>
        <Group gap={4} wrap="nowrap">
          {col.header}
          {on && (sort.dir === 1 ? <IconArrowUp size={12} /> : <IconArrowDown size={12} />)}
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/** The rows at phone width: the first column as the card's title, the others as `header: value` lines. */
function Cards<T>({ rows, columns, rowKey, rowProps, actions, detail, ...table }: DataTableProps<T>) {
  return (
    <Stack gap="xs" data-testid={table['data-testid']}>
      {rows.map((row, index) => (
        <Paper key={rowKey(row, index)} withBorder p="xs" {...rowProps?.(row, index)}>
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
                  {i > 0 && (col.cardHeader ?? col.header) && <>{col.cardHeader ?? col.header}: </>}
                  {col.cell(row, index)}
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
}

export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, rowKey, rowProps, scrollMinWidth, cards, actions, detail, hideHeader, caption, ...table } =
    props;
  const mobile = useIsMobile();
  const [sort, setSort] = useState<Sort>(null);
  const rows = useMemo(() => sortRows(props.rows, columns, sort), [props.rows, columns, sort]);
  const scroll = useRef<HTMLDivElement>(null);
  const virtual = !!cards && !detail && rows.length > VIRTUAL_FROM;
  const v = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scroll.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const toggle = (key: string) =>
    setSort((s) => (s?.key === key ? { key, dir: s.dir === 1 ? -1 : 1 } : { key, dir: 1 }));

  if (cards && mobile) return <Cards {...props} rows={rows} />;

  const items = virtual ? v.getVirtualItems() : rows.map((_, index) => ({ index, start: 0, end: 0 }));
  const padTop = virtual && items.length ? items[0].start : 0;
  const padBottom = virtual && items.length ? v.getTotalSize() - items[items.length - 1].end : 0;
  const body = (
    <Table {...table} data-rows={rows.length}>
      {!hideHeader && (
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
            <Fragment key={rowKey(row, index)}>
              <Table.Tr {...rowProps?.(row, index)}>
                {columns.map((col) => (
                  <Table.Td key={col.key} data-testid={col.testId} {...col.props} {...col.cellProps?.(row)}>
                    {col.cell(row, index)}
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
      {caption && <Table.Caption>{caption}</Table.Caption>}
    </Table>
  );
  if (virtual)
    return (
      <Box
        ref={scroll}
        mah="60vh"
        style={{ overflow: 'auto' }}
        data-testid={`${table['data-testid']}-scroll`}
      >
        {body}
      </Box>
    );
  return scrollMinWidth ? (
    <Table.ScrollContainer minWidth={scrollMinWidth}>{body}</Table.ScrollContainer>
  ) : (
    body
  );
}
