// User management with Excel import (SPEC §2, §4 "Excel import", §5 "Excel files"): choose an .xlsx, analyse it,
// preview the first 50 rows with each row's validation errors (domain userImportRows), import the valid ones one
// by one with POST /api/users showing processed / successful / errors, then the outcome (full success, partial,
// failure) with a log of the failures (ImportUsersParts). Closing is refused while importing.
import { Alert, Badge, Button, FileButton, Group, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  canCancelImport,
  importFileProblem,
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
import { SaveCancel } from '../../components/SaveCancel.tsx';
import { ImportPreviewTable, ImportResult, type LogLine } from './ImportUsersParts.tsx';

// The first worksheet of an .xlsx file as rows of cell values (exceljs, loaded on demand).
/** Cell values of the first sheet, row by row (1-based sheet rows become array positions 0…). */
async function readFirstSheet(data: ArrayBuffer): Promise<unknown[][]> {
  const mod = await import('exceljs');
  // CommonJS in Node (default export), ES in the browser bundle
  const ExcelJS = (mod.default ?? mod) as typeof mod.default;
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data);
  const ws = wb.worksheets[0];
  if (!ws) return [];
  const rows: unknown[][] = [];
  ws.eachRow({ includeEmpty: true }, (row, n) => {
    const values = Array.isArray(row.values) ? row.values.slice(1) : [];
    rows[n - 1] = values.map((v) => (v instanceof Date ? v.toISOString().slice(0, 10) : v));
  });
  for (let i = 0; i < rows.length; i++) rows[i] ??= [];
  return rows;
}

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
  const [log, setLog] = useState<LogLine[]>([]);

  const split = splitImportRows(rows);
  const lim = importLimit(limit, used, split.valid.length);

  const choose = async (file: File | null) => {
    if (!file) return;
    setFileName(file.name);
    setProblem(null);
    setRows([]);
    const fileProblem = importFileProblem(file);
    if (fileProblem) {
      setProblem(fileProblem);
      return;
    }
    try {
      const sheet = await readFirstSheet(await file.arrayBuffer());
      const parsed = userImportRows(sheet, existingEmails);
      if (parsed.length === 0) {
        setProblem('import.emptyFile');
        return;
      }
      setRows(parsed);
      setStep('preview');
    } catch (e) {
      console.warn('import file not read', e);
      setProblem('import.processingError');
    }
  };

  const run = async () => {
    setStep('import');
    const lines: LogLine[] = [];
    const p: ImportProgress = { processed: 0, successful: 0, errors: 0 };
    for (const row of split.valid) {
      try {
        await resourceClient.save('users', importRowToUser(row.data));
        p.successful++;
      } catch (e) {
        p.errors++;
        const text = serverMessage(e) ?? String(e);
        lines.push({ index: row.index, email: row.data.email, message: text });
      }
      p.processed++;
      setProgress({ ...p });
    }
    setLog(lines);
    await qc.invalidateQueries({ queryKey: resourceKeys.all('users') });
    setStep('complete');
  };

  const close = () => {
    if (canCancelImport(step)) onClose();
  };
  const preview = importPreview(rows);

  return (
    <Modal
      opened
      onClose={close}
      closeOnEscape={canCancelImport(step)}
      closeOnClickOutside={canCancelImport(step)}
      withCloseButton={canCancelImport(step)}
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
            <ImportPreviewTable preview={preview} />
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
          <ImportResult
            step={step}
            progress={progress}
            total={split.valid.length}
            skipped={split.invalid.length}
            log={log}
            onClose={onClose}
          />
        )}
      </Stack>
    </Modal>
  );
}
