// The table of one page of action logs in the 'logObjects' dialog, and its columns (shared with the Excel sheet).
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable.tsx';
import type { LogRow } from './logRows.ts';

/** The columns of the table and of the Excel sheet, with the sheet's widths. */
export const LOG_COLUMNS = [
  ['time', 22],
  ['user', 28],
  ['action', 16],
  ['object', 30],
  ['address', 18],
] as const;

export function LogsTable({ rows, formatTime }: { rows: LogRow[]; formatTime: Intl.DateTimeFormat }) {
  const { t } = useTranslation('logs');
  return (
    <DataTable<LogRow>
      striped
      highlightOnHover
      data-testid="logs-table"
      scrollMinWidth={640}
      rows={rows}
      rowKey={(r) => r.key}
      rowProps={() => ({ 'data-testid': 'logs-row' })}
      columns={LOG_COLUMNS.map(([key]) => ({
        key,
        header: t(`column.${key}`),
        cell: (r) => (key !== 'time' ? r[key] : Number.isFinite(r.time) ? formatTime.format(r.time) : ''),
        props: { 'data-key': key },
      }))}
    />
  );
}
