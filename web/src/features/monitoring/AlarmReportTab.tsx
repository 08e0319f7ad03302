// The desk's own report tab (issue #32): GET /{ns}/reports/alarms for the last day or week — counts per type and
// the times to acknowledge and to resolve (median, p90, minutes), per operator.
import { Alert, Button, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { formatDecimal } from '@rastro/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable.tsx';
import { downloadServerXlsx, fileStem } from '../../components/xlsx.ts';
import { fetchAlarmReport } from './api.ts';

const PERIOD_HOURS = { day: 24, week: 24 * 7 } as const;
const RIGHT = { ta: 'right' } as const;

export function AlarmReportTab() {
  const { t, i18n } = useTranslation('monitoring');
  const [period, setPeriod] = useState<keyof typeof PERIOD_HOURS>('day');
  const span = () => {
    const to = new Date();
    const from = new Date(to.getTime() - PERIOD_HOURS[period] * 3_600_000);
    return [from.toISOString(), to.toISOString()] as const;
  };
  const report = useQuery({ queryKey: ['alarm-report', period], queryFn: () => fetchAlarmReport(...span()) });
  const excel = useMutation({
    mutationFn: () => {
      const [from, to] = span();
      return downloadServerXlsx('/reports/alarms', { from, to }, fileStem(t('tabs.report'), period));
    },
  });
  const min = (v: number | null) => (v === null ? '—' : `${formatDecimal(v, i18n.language, 1)} min`);
  const r = report.data;
  return (
    <Stack gap="sm" data-testid="alarm-report">
      <SegmentedControl
        value={period}
        onChange={(v) => setPeriod(v as keyof typeof PERIOD_HOURS)}
        data={[
          { value: 'day', label: t('report.day') },
          { value: 'week', label: t('report.week') },
        ]}
        aria-label={t('report.period')}
      />
      {(report.isError || excel.isError) && <Alert color="red">{t('error')}</Alert>}
      {r && (
        <>
          <SimpleGrid cols={2} spacing="xs">
            {(['count', 'resolved'] as const).map((k) => (
              <Text key={k} size="sm">
                {t(`report.${k}`)}: <b data-testid={`alarm-report-${k}`}>{r[k]}</b>
              </Text>
            ))}
            {(['ack', 'resolve'] as const).map((k) => (
              <Text key={k} size="sm">
                {t(`report.${k}`)}: {min(r[`${k}Median`])} / {min(r[`${k}P90`])}
              </Text>
            ))}
          </SimpleGrid>
          <DataTable
            striped
            withTableBorder
            data-testid="alarm-report-types"
            rows={r.byType}
            rowKey={(row) => row.type}
            rowProps={(row) => ({ 'data-type': row.type })}
            columns={[
              { key: 'type', header: t('filter.type'), cell: (row) => t(`common:alarms.type.${row.type}`) },
              { key: 'count', header: t('report.count'), cell: (row) => row.count, props: RIGHT },
            ]}
          />
          <DataTable
            striped
            withTableBorder
            data-testid="alarm-report-operators"
            rows={r.byOperator}
            rowKey={(row) => row.userId}
            columns={[
              { key: 'name', header: t('report.operator'), cell: (row) => row.name },
              { key: 'count', header: t('report.count'), cell: (row) => row.count, props: RIGHT },
              { key: 'ack', header: t('report.ackShort'), cell: (row) => min(row.ackMedian), props: RIGHT },
            ]}
          />
          <Button variant="light" onClick={() => excel.mutate()} data-testid="alarm-report-xlsx">
            {t('report.excel')}
          </Button>
        </>
      )}
    </Stack>
  );
}
