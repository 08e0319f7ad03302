// ReportsPage: the report menu and its sub-routes (resume, travels, stops, events, history). The report screens
// arrive with a later issue; for now each names its report and what it will show.
import { NavLink, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FeatureIntro } from '../../components/FeatureIntro.tsx';

export const REPORT_KINDS = ['resume', 'travels', 'stops', 'events', 'history'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

export function ReportsPage({ kind }: { kind?: ReportKind }) {
  const { t } = useTranslation('reports');
  if (kind)
    return <FeatureIntro title={t(`kinds.${kind}.title`)} description={t(`kinds.${kind}.description`)} />;
  return (
    <FeatureIntro title={t('title')} description={t('description')}>
      <Stack gap={0}>
        {REPORT_KINDS.map((k) => (
          <NavLink
            key={k}
            component={Link}
            to={`/reports/${k}`}
            label={t(`kinds.${k}.title`)}
            data-testid={`report-${k}`}
          />
        ))}
      </Stack>
    </FeatureIntro>
  );
}
