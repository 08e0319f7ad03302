// The table of scheduled reports in "Relatórios agendados": description, type, calendar, edit and delete.
import { ActionIcon, Group, Table } from '@mantine/core';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import type { ScheduledReport } from '@rastro/domain';
import { useTranslation } from 'react-i18next';

export function ScheduledTable({
  rows,
  writable,
  opening,
  typeLabel,
  calendarName,
  onEdit,
  onDelete,
}: {
  rows: ScheduledReport[];
  writable: boolean;
  opening: boolean;
  typeLabel(type: string): string;
  calendarName(id: number): string;
  onEdit(report: ScheduledReport): void;
  onDelete(report: ScheduledReport): void;
}) {
  const { t } = useTranslation('reports');
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table striped fz="sm" data-testid="scheduled-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('scheduled.fields.description')}</Table.Th>
            <Table.Th>{t('scheduled.fields.type')}</Table.Th>
            <Table.Th>{t('scheduled.fields.calendar')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.id} data-testid="scheduled-row" data-report-id={r.id}>
              <Table.Td>{r.description || typeLabel(r.type)}</Table.Td>
              <Table.Td>{typeLabel(r.type)}</Table.Td>
              <Table.Td>{calendarName(r.calendarId)}</Table.Td>
              <Table.Td>
                {writable && (
                  <Group gap={4} justify="flex-end" wrap="nowrap">
                    <ActionIcon
                      variant="subtle"
                      aria-label={t('scheduled.edit')}
                      loading={opening}
                      onClick={() => onEdit(r)}
                      data-testid="scheduled-edit"
                    >
                      <IconEdit size={16} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('scheduled.delete')}
                      onClick={() => onDelete(r)}
                      data-testid="scheduled-delete"
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
