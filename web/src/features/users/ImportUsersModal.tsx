// User management with Excel import (SPEC §2, §4 "Excel import", §5 "Excel files"): choose an .xlsx, analyse it,
// preview the first 50 rows with each row's validation errors (domain userImportRows), import the valid ones one
// by one with POST /api/users showing processed / successful / errors, then the outcome (full success, partial,
// failure) with a log of the failures. Closing is refused while importing.
import {
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  Modal,
  Progress,
  ScrollArea,
  Stack,
  Text,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  canCancelImport,
  importFileProblem,
  importOutcome,
  importLimit,
  importPreview,
  importRowToUser,
  splitImportRows,
  userImportRows,
  type ImportProgress,
  type ImportRow,
  type ImportStep,
  type UserImportData,
} from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage } from '../../api/http.ts';
import { resourceClient, resourceKeys } from '../../api/resources.ts';
import { DataTable } from '../../components/DataTable.tsx';
import { SaveCancel } from '../../components/SaveCancel.tsx';
import { readFirstSheet } from '../../components/xlsx.ts';

export interface ImportUsersProps {
  /** E-mails already in use (the caller's list), checked as duplicates. */
  existingEmails: string[];
  /** The caller's userLimit (-1 unlimited) and managed count; administrators pass -1. */
  limit: number;
  used: number;
  onClose(): void;
}

export function ImportUsersModal({ existingEmails, limit, used, onClose }: ImportUsersProps) {
  const { t } = useTranslation('users');
  const qc = useQueryClient();
  const [step, setStep] = useState<ImportStep>('analyse');
  const [fileName, setFileName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [rows, setRows] = useState<ImportRow<UserImportData>[]>([]);
  const [progress, setProgress] = useState<ImportProgress>({ processed: 0, successful: 0, errors: 0 });
  // the rows the server refused, with its message
  const [log, setLog] = useState<Array<[ImportRow<UserImportData>, string]>>([]);

  const split = splitImportRows(rows);
  const lim = importLimit(limit, used, split.valid.length);

  const choose = async (file: File | null) => {
    if (!file) return;
    setFileName(file.name);
    setProblem(null);
    setRows([]);
    let found = importFileProblem(file);
    if (!found) {
      try {
        const parsed = userImportRows(await readFirstSheet(await file.arrayBuffer()), existingEmails);
        if (parsed.length === 0) found = 'import.emptyFile';
        setRows(parsed);
        if (parsed.length) setStep('preview');
      } catch (e) {
        console.warn('import file not read', e);
        found = 'import.processingError';
      }
    }
    setProblem(found);
  };

  const run = async () => {
    setStep('import');
    const refused: typeof log = [];
    const p: ImportProgress = { processed: 0, successful: 0, errors: 0 };
    for (const row of split.valid) {
      try {
        await resourceClient.save('users', importRowToUser(row.data));
        p.successful++;
      } catch (e) {
        p.errors++;
        refused.push([row, serverMessage(e) ?? String(e)]);
      }
      p.processed++;
      setProgress({ ...p });
    }
    setLog(refused);
    await qc.invalidateQueries({ queryKey: resourceKeys.all('users') });
    setStep('complete');
  };

  const cancellable = canCancelImport(step);
  const close = () => cancellable && onClose();
  const preview = importPreview(rows);
  const outcome = importOutcome(progress);

  return (
    <Modal
      opened
      onClose={close}
      closeOnEscape={cancellable}
      closeOnClickOutside={cancellable}
      withCloseButton={cancellable}
      title={t('import.title')}
      size="xl"
      data-testid="user-import"
    >
      <Stack gap="sm">
        {(step === 'analyse' || step === 'preview') && (
          <>
            <Text size="sm" c="dimmed">
              {t('import.help')}
            </Text>
            <Group>
              <FileButton onChange={(f) => void choose(f)} accept=".xlsx,.xls">
                {(props) => (
                  <Button variant="default" size="xs" {...props} data-testid="user-import-choose">
                    {t('import.choose')}
                  </Button>
                )}
              </FileButton>
              {fileName && <Text size="sm">{fileName}</Text>}
            </Group>
          </>
        )}
        {problem && (
          <Alert color="red" data-testid="user-import-problem">
            {t(problem)}
          </Alert>
        )}
        {step === 'preview' && (
          <>
            <Group gap="xs" data-testid="user-import-summary">
              <Badge color="green">{t('import.validCount', { count: split.valid.length })}</Badge>
              <Badge color="red">{t('import.invalidCount', { count: split.invalid.length })}</Badge>
              {Number.isFinite(lim.remaining) && (
                <Badge color="gray">{t('import.remaining', { count: lim.remaining })}</Badge>
              )}
            </Group>
            {rows.length > preview.length && (
              <Text size="xs" c="dimmed">
                {t('import.previewNote', { shown: preview.length, total: rows.length })}
              </Text>
            )}
            <ScrollArea.Autosize mah={320}>
              <DataTable
                fz="xs"
                striped
                data-testid="user-import-preview"
                rows={preview}
                rowKey={(r) => r.index}
                rowProps={(r) => ({ 'data-testid': 'user-import-row', 'data-valid': r.errors.length === 0 })}
                columns={[
                  { key: 'row', header: t('import.row'), cell: (r) => r.index },
                  ...(['name', 'email', 'phone'] as const).map((k) => ({
                    key: k,
                    header: t(`fields.${k}`),
                    cell: (r: ImportRow<UserImportData>) => r.data[k],
                  })),
                  {
                    key: 'status',
                    header: t('import.status'),
                    cell: (r) => (
                      <Text size="xs" c={r.errors.length === 0 ? 'green' : 'red'}>
                        {r.errors.length === 0 ? t('import.ok') : r.errors.map((e) => t(e)).join('; ')}
                      </Text>
                    ),
                  },
                ]}
              />
            </ScrollArea.Autosize>
            {split.problem && <Alert color="red">{t(split.problem)}</Alert>}
            {lim.exceeded && (
              <Alert color="red" data-testid="user-import-limit">
                {t('import.limitExceeded')} {t('import.remaining', { count: lim.remaining })}
              </Alert>
            )}
            <SaveCancel
              cancel={t('cancel')}
              save={t('import.run', { count: split.valid.length })}
              onCancel={close}
              onSave={() => void run()}
              disabled={!!split.problem || lim.exceeded}
              saveTestId="user-import-run"
            />
          </>
        )}
        {(step === 'import' || step === 'complete') && (
          <Stack gap="xs" data-testid="user-import-progress">
            <Progress value={split.valid.length ? (progress.processed / split.valid.length) * 100 : 100} />
            <Text size="sm">{t('import.progress', { ...progress, total: split.valid.length })}</Text>
            {step === 'import' && (
              <Text size="xs" c="dimmed">
                {t('import.cannotCancel')}
              </Text>
            )}
          </Stack>
        )}
        {step === 'complete' && (
          <>
            <Alert
              color={outcome === 'success' ? 'green' : outcome === 'partial' ? 'yellow' : 'red'}
              data-testid="user-import-result"
              data-outcome={outcome}
            >
              {t(`import.outcome.${outcome}`, { ...progress, skipped: split.invalid.length })}
            </Alert>
            {log.length > 0 && (
              <Stack gap={2} data-testid="user-import-log">
                {log.map(([row, message]) => (
                  <Text key={row.index} size="xs" c="red">
                    {t('import.row')} {row.index} ({row.data.email}): {message}
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
      </Stack>
    </Modal>
  );
}
