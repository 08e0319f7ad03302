// Period choice of history and reports (SPEC §9 report ranges: today, yesterday, last 7, 30 and 90 days, plus a
// custom range), resolved in the user's (else server's, else browser's) time zone. Labels: `reports` namespace.
import { Group, Select } from '@mantine/core';
import { REPORT_RANGES, reportRange, type IsoRange } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { DateField, toLocalInput } from './DateField.tsx';

export const PERIODS = [...REPORT_RANGES, 'custom'] as const;
export type Period = (typeof PERIODS)[number];

export interface PeriodValue {
  period: Period;
  /** YYYY-MM-DDTHH:mm values (browser time) for the custom range */
  from: string;
  to: string;
}

export function defaultPeriod(period: Period = 'today', now = new Date()): PeriodValue {
  const from = new Date(now);
  from.setHours(0, 0, 0, 0);
  return { period, from: toLocalInput(from), to: toLocalInput(now) };
}

/** ISO from/to of a period, or null when a custom range is incomplete or reversed. */
export function resolvePeriod(v: PeriodValue, timeZone: string, now: Date = new Date()): IsoRange | null {
  if (v.period !== 'custom') return reportRange(v.period, now, timeZone);
  const from = Date.parse(v.from);
  const to = Date.parse(v.to);
  if (!Number.isFinite(from) || !Number.isFinite(to) || from > to) return null;
  return { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

export function PeriodPicker({
  value,
  onChange,
  testId = 'period',
}: {
  value: PeriodValue;
  onChange: (v: PeriodValue) => void;
  testId?: string;
}) {
  const { t } = useTranslation('reports');
  // a custom range that does not resolve (incomplete or reversed); the time zone plays no part in it
  const invalid = value.period === 'custom' && !resolvePeriod(value, 'UTC') ? t('period.invalid') : undefined;
  return (
    <>
      <Select
        label={t('period.label')}
        data={PERIODS.map((p) => ({ value: p, label: t(`period.${p}`) }))}
        value={value.period}
        onChange={(p) => p && onChange({ ...value, period: p as Period })}
        allowDeselect={false}
        data-testid={`${testId}-select`}
      />
      {value.period === 'custom' && (
        <Group grow gap="xs" align="flex-start">
          {(['from', 'to'] as const).map((k) => (
            <DateField
              key={k}
              withTime
              label={t(`period.${k}`)}
              value={value[k]}
              error={k === 'to' ? invalid : undefined}
              onChange={(v) => onChange({ ...value, [k]: v })}
              data-testid={`${testId}-${k}`}
            />
          ))}
        </Group>
      )}
    </>
  );
}
