// A page of a report: the table (a row opens its trip, stop or event on the map), the pages and the page size.
import { Group, Pagination, Select, Table } from '@mantine/core';
import type { Page } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import type { Column, ReportRow } from './columns.ts';

const PAGE_SIZES = [10, 25, 50, 100] as const;

export function ReportTable({
  shown,
  columns,
  selected,
  onOpen,
  onPage,
  onLimit,
}: {
  shown: Page<ReportRow>;
  columns: Column<ReportRow>[];
  selected: number | null;
  onOpen(row: ReportRow, index: number): void;
  onPage(page: number): void;
  onLimit(limit: number): void;
}) {
  const { t } = useTranslation('reports');
  return (
    <>
      <Table.ScrollContainer minWidth={columns.length * 110}>
        <Table striped highlightOnHover withTableBorder fz="xs" data-testid="report-table">
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.key} data-key={c.key}>
                  {c.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.items.map((row, i) => {
              const index = (shown.page - 1) * shown.limit + i;
              return (
                <Table.Tr
                  key={index}
                  onClick={() => onOpen(row, index)}
                  style={{ cursor: 'pointer' }}
                  bg={selected === index ? 'var(--mantine-color-blue-light)' : undefined}
                  data-testid="report-row"
                  data-index={index}
                >
                  {columns.map((c) => (
                    <Table.Td key={c.key} data-key={c.key}>
                      {c.cell(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between" gap="xs">
        <Pagination
          total={shown.pages}
          value={shown.page}
          onChange={onPage}
          size="sm"
          siblings={1}
          data-testid="report-pages"
        />
        <Select
          aria-label={t('pageSize')}
          w={90}
          data={PAGE_SIZES.map((s) => ({ value: String(s), label: String(s) }))}
          value={String(shown.limit)}
          onChange={(v) => {
            if (v) onLimit(Number(v));
          }}
          allowDeselect={false}
          data-testid="report-page-size"
          comboboxProps={{ withinPortal: true }}
        />
      </Group>
    </>
  );
}
