// A page of a report: the table (a row opens its trip, stop or event on the map), the pages and the page size.
import { Group, Pagination, Select } from '@mantine/core';
import type { Page } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable.tsx';
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
  const first = (shown.page - 1) * shown.limit;
  return (
    <>
      <DataTable
        striped
        highlightOnHover
        withTableBorder
        fz="xs"
        data-testid="report-table"
        scrollMinWidth={columns.length * 110}
        rows={shown.items}
        rowKey={(_, i) => first + i}
        rowProps={(row, i) => ({
          onClick: () => onOpen(row, first + i),
          style: { cursor: 'pointer' },
          bg: selected === first + i ? 'var(--mantine-color-blue-light)' : undefined,
          'data-testid': 'report-row',
          'data-index': first + i,
        })}
        columns={columns.map((c) => ({
          key: c.key,
          header: c.label,
          cell: c.cell,
          props: { 'data-key': c.key },
        }))}
      />
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
          data={PAGE_SIZES.map(String)}
          value={String(shown.limit)}
          onChange={(v) => v && onLimit(Number(v))}
          allowDeselect={false}
          data-testid="report-page-size"
        />
      </Group>
    </>
  );
}
