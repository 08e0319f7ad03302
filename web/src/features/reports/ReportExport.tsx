// The report's Excel export, built in the browser, and "by e-mail": the server builds the same report as .xlsx
// and mails it to the user (GET /api/reports/{type}/mail).
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileSpreadsheet, IconMail } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { periodDays } from '@rastro/domain';
import { api, serverDetail } from '../../api/http.ts';
import { useTimeZone } from '../../components/timeZone.ts';
import { buildXlsx, downloadBlob, fileStem, XLSX_MIME } from '../../components/xlsx.ts';
import { useSession } from '../../stores/session.ts';
import { excelValue, REPORT_TYPE, type Column, type ReportKind, type ReportRow } from './columns.ts';

/** A report as last run: its rows, period and query. */
export type Loaded = { kind: ReportKind; rows: ReportRow[]; from: string; to: string; query: string };

export function ReportExport({
  loaded,
  columns,
  disabled,
}: {
  loaded: Loaded | null;
  columns: Column<ReportRow>[];
  disabled: boolean;
}) {
  const { t } = useTranslation('reports');
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const tz = useTimeZone();

  const exportXlsx = useMutation({
    mutationFn: async (report: Loaded) => {
      const title = t(`kinds.${report.kind}.title`);
      // the period's local days ("today" is one day, though its last millisecond is tomorrow in UTC)
      const days = periodDays(report, tz);
      const data = await buildXlsx([
        {
          name: title,
          columns: columns.map((c) => ({
            header: c.label,
            key: c.key,
            width: c.key.includes('ddress') ? 40 : 18,
          })),
          rows: report.rows.map((r) => Object.fromEntries(columns.map((c) => [c.key, excelValue(c, r)]))),
        },
      ]);
      downloadBlob(data, `${fileStem(title, days.first, days.last)}.xlsx`, XLSX_MIME);
    },
    onError: (err) => console.warn('report not exported', err),
  });

  // "by e-mail": the server builds the same report as .xlsx and mails it to the user (GET /api/reports/{type}/mail)
  const canMail = !!server?.emailEnabled && !!user?.email.includes('@');
  const mail = useMutation({
    mutationFn: (report: Loaded) =>
      api.request('GET', `/reports/${REPORT_TYPE[report.kind]}/mail?${report.query}`),
    onSuccess: () =>
      notifications.show({ color: 'green', message: t('form.mailed', { email: user?.email ?? '' }) }),
    onError: (err) =>
      notifications.show({ color: 'red', message: `${t('form.mailError')}${serverDetail(err)}` }),
  });

  const buttons = [
    ['excel', IconFileSpreadsheet, exportXlsx, true] as const,
    ['mail', IconMail, mail, canMail] as const,
  ];
  return buttons.map(
    ([k, Icon, action, offered]) =>
      offered && (
        <Button
          key={k}
          variant="default"
          leftSection={<Icon size={16} />}
          disabled={disabled}
          loading={action.isPending}
          onClick={() => loaded && action.mutate(loaded)}
          data-testid={`report-${k}`}
        >
          {t(`form.${k}`)}
        </Button>
      ),
  );
}
