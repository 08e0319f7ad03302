// The table of one page of action logs in the 'logObjects' dialog.
import { Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { LogRow } from './logRows.ts';

export function LogsTable({ rows, formatTime }: { rows: LogRow[]; formatTime: Intl.DateTimeFormat }) {
  const { t } = useTranslation('logs');
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover data-testid="logs-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('column.time')}</Table.Th>
            <Table.Th>{t('column.user')}</Table.Th>
            <Table.Th>{t('column.action')}</Table.Th>
            <Table.Th>{t('column.object')}</Table.Th>
            <Table.Th>{t('column.address')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.key} data-testid="logs-row">
              <Table.Td>{Number.isFinite(r.time) ? formatTime.format(r.time) : ''}</Table.Td>
              <Table.Td>{r.user}</Table.Td>
              <Table.Td data-key="action">{r.action}</Table.Td>
              <Table.Td data-key="object">{r.object}</Table.Td>
              <Table.Td>{r.address}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
