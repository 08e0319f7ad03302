// /reports: the report menu and the scheduled reports (a dialog); /reports/{resume,travels,stops,events,history}:
// that report (ReportView).
import { Button, Group, NavLink, Stack, Text } from '@mantine/core';
import { IconCalendarTime } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { useCan } from '../../components/useCan.ts';
import { REPORT_KINDS, type ReportKind } from './columns.ts';
import { ReportView } from './ReportView.tsx';

const ScheduledReports = lazy(() =>
  import('./ScheduledReports.tsx').then((m) => ({ default: m.ScheduledReports })),
);

export function ReportsPage({ kind }: { kind?: ReportKind }) {
  const { t } = useTranslation('reports');
  const [scheduled, setScheduled] = useState(false);
  // the events report needs the events bit too (the access table; the server refuses it otherwise)
  const events = useCan('screen.eventsReport');
  if (kind) return <ReportView key={kind} kind={kind} />;
  return (
    <Stack gap="xs" data-testid="reports-menu">
      <Text size="sm" c="dimmed">
        {t('description')}
      </Text>
      <Stack gap={0}>
        {REPORT_KINDS.filter((k) => k !== 'events' || events).map((k) => (
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
      <Group>
        <Button
          variant="light"
          leftSection={<IconCalendarTime size={16} />}
          onClick={() => setScheduled(true)}
          data-testid="reports-scheduled"
        >
          {t('scheduled.title')}
        </Button>
      </Group>
      {scheduled && (
        <Suspense fallback={null}>
          <ScheduledReports onClose={() => setScheduled(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
