// /reports: the report menu; /reports/{resume,travels,stops,events,history}: that report (ReportView).
import { NavLink, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { REPORT_KINDS, type ReportKind } from './columns.ts';
import { ReportView } from './ReportView.tsx';

export { REPORT_KINDS, type ReportKind };

export function ReportsPage({ kind }: { kind?: ReportKind }) {
  const { t } = useTranslation('reports');
  if (kind) return <ReportView key={kind} kind={kind} />;
  return (
    <Stack gap="xs" data-testid="reports-menu">
      <Text size="sm" c="dimmed">
        {t('description')}
      </Text>
      <Stack gap={0}>
        {REPORT_KINDS.map((k) => (
          <NavLink
            key={k}
            component={Link}
            to={`/reports/${k}`}
            label={t(`kinds.${k}.title`)}
            description={t(`kinds.${k}.description`)}
            data-testid={`report-${k}`}
          />
        ))}
      </Stack>
    </Stack>
  );
}
