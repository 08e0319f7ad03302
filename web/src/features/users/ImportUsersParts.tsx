// The Excel import's parts (ImportUsersModal): the preview table of the first rows with each row's errors, and the
// progress while importing, then the outcome (full success, partial, failure) with the log of the failures.
import { Alert, Button, Group, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import {
  importOutcome,
  type ImportProgress,
  type ImportRow,
  type ImportStep,
  type UserImportData,
} from '@rastro/domain';
import { useTranslation } from 'react-i18next';

export interface LogLine {
  index: number;
  email: string;
  message: string;
}

export function ImportPreviewTable({ preview }: { preview: ImportRow<UserImportData>[] }) {
  const { t } = useTranslation('users');
  return (
    <ScrollArea.Autosize mah={320}>
      <Table fz="xs" striped data-testid="user-import-preview">
        <Table.Thead>
          <Table.Tr>
            {['import.row', 'fields.name', 'fields.email', 'fields.phone', 'import.status'].map((k) => (
              <Table.Th key={k}>{t(k)}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {preview.map((r) => (
            <Table.Tr key={r.index} data-testid="user-import-row" data-valid={r.errors.length === 0}>
              <Table.Td>{r.index}</Table.Td>
              <Table.Td>{r.data.name}</Table.Td>
              <Table.Td>{r.data.email}</Table.Td>
              <Table.Td>{r.data.phone}</Table.Td>
              <Table.Td>
                <Text size="xs" c={r.errors.length === 0 ? 'green' : 'red'}>
                  {r.errors.length === 0 ? t('import.ok') : r.errors.map((e) => t(e)).join('; ')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

interface ResultProps {
  step: ImportStep;
  progress: ImportProgress;
  total: number;
  skipped: number;
  log: LogLine[];
  onClose(): void;
}

export function ImportResult({ step, progress, total, skipped, log, onClose }: ResultProps) {
  const { t } = useTranslation('users');
  const outcome = importOutcome(progress);
  return (
    <>
      <Stack gap="xs" data-testid="user-import-progress">
        <Progress value={total ? (progress.processed / total) * 100 : 100} />
        <Text size="sm">
          {t('import.progress', {
            processed: progress.processed,
            total,
            successful: progress.successful,
            errors: progress.errors,
          })}
        </Text>
        {step === 'import' && (
          <Text size="xs" c="dimmed">
            {t('import.cannotCancel')}
          </Text>
        )}
      </Stack>
      {step === 'complete' && (
        <>
          <Alert
            color={outcome === 'success' ? 'green' : outcome === 'partial' ? 'yellow' : 'red'}
            data-testid="user-import-result"
            data-outcome={outcome}
          >
            {t(`import.outcome.${outcome}`, {
              successful: progress.successful,
              errors: progress.errors,
              skipped,
            })}
          </Alert>
          {log.length > 0 && (
            <Stack gap={2} data-testid="user-import-log">
              {log.map((l) => (
                <Text key={l.index} size="xs" c="red">
                  {t('import.row')} {l.index} ({l.email}): {l.message}
                </Text>
              ))}
            </Stack>
          )}
          <Group justify="flex-end">
            <Button onClick={onClose} data-testid="user-import-close">
              {t('close')}
            </Button>
          </Group>
        </>
      )}
    </>
  );
}
