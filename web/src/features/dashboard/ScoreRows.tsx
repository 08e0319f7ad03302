// The scores ranking's rows (GET /{ns}/scores) in the catalogue table: a table on a wide screen, one card per driver
// or vehicle on a phone (issue #29: at 390 px nothing is cut off nor hidden behind a sideways scroll). A row's name
// opens its breakdown under it: each component's measure, weight and points lost.
import { Badge, Group, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import {
  formatDistance,
  formatDuration,
  formatNumber,
  SCORE_WEIGHT_KEYS,
  type ScoreRow,
  type ScoresAnswer,
  type ScoreSubject,
  type Units,
} from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';

const scoreColor = (s: number) => (s >= 80 ? 'green' : s >= 60 ? 'yellow' : 'red');

function Breakdown({ row, answer, locale }: { row: ScoreRow; answer: ScoresAnswer; locale: string }) {
  const { t } = useTranslation('common');
  return (
    <DataTable
      fz="xs"
      withTableBorder
      data-testid="score-breakdown"
      rows={SCORE_WEIGHT_KEYS}
      rowKey={(k) => k}
      rowProps={(k) => ({ 'data-component': k })}
      columns={[
        { key: 'component', header: t('dashboard:scores.component'), cell: (k) => t(`scores.column.${k}`) },
        {
          key: 'value',
          header: t('dashboard:scores.measured'),
          cell: (k) => formatNumber(row.breakdown[k].value, locale, 1),
          testId: 'component-value',
        },
        {
          key: 'weight',
          header: t('dashboard:scores.weight'),
          cell: (k) => formatNumber(answer.weights[k], locale, 1),
        },
        {
          key: 'penalty',
          header: t('dashboard:scores.lost'),
          cell: (k) => `−${formatNumber(row.breakdown[k].penalty, locale, 1)}`,
          testId: 'component-penalty',
        },
      ]}
      caption={`${t('scores.column.source')}: ${t(row.breakdown.fromAlarms ? 'scores.source.alarms' : 'scores.source.positions')}`}
    />
  );
}

function ScoreValue({ score }: { score: number | null }) {
  const { t } = useTranslation('dashboard');
  return score === null ? (
    <Text size="xs" c="dimmed">
      {t('common:scores.noScore')}
    </Text>
  ) : (
    <Badge color={scoreColor(score)} variant="light">
      {score}
    </Badge>
  );
}

/** A row's name, which opens (or closes) its breakdown. */
function OpenButton({ row, open, onOpen }: { row: ScoreRow } & Pick<ScoreRowsProps, 'open' | 'onOpen'>) {
  const expanded = open === row.key;
  return (
    <UnstyledButton
      onClick={() => onOpen(expanded ? null : row.key)}
      aria-expanded={expanded}
      data-testid="score-open"
      style={{ minWidth: 0 }}
    >
      <Group gap={4} wrap="nowrap">
        {expanded ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {row.name}
        </Text>
      </Group>
    </UnstyledButton>
  );
}

interface ScoreRowsProps {
  answer: ScoresAnswer;
  by: ScoreSubject;
  units: Units;
  locale: string;
  open: string | null;
  onOpen(key: string | null): void;
}

/** The ranking, best first (the rank is the row's place). */
export function ScoreRows({ answer, by, units, locale, open, onOpen }: ScoreRowsProps) {
  const { t } = useTranslation('dashboard');
  const columns: DataColumn<ScoreRow>[] = [
    { key: 'rank', header: t('common:scores.column.rank'), cell: (_, i) => i + 1 },
    {
      key: 'name',
      header: t(`common:scores.column.${by}`),
      cell: (row) => <OpenButton row={row} open={open} onOpen={onOpen} />,
    },
    {
      key: 'score',
      header: t('common:scores.column.score'),
      cell: (row) => (
        <div data-testid="score-value" data-value={row.breakdown.score ?? ''}>
          <ScoreValue score={row.breakdown.score} />
        </div>
      ),
    },
    {
      key: 'distance',
      header: t('scores.distance'),
      cell: (row) => formatDistance(row.distance, units.distanceUnit, locale, 1),
    },
    { key: 'time', header: t('scores.drivingTime'), cell: (row) => formatDuration(row.drivingMs) },
  ];
  return (
    <DataTable
      cards
      striped
      fz="sm"
      data-testid="scores-table"
      rows={answer.rows}
      columns={columns}
      rowKey={(row) => row.key}
      rowProps={(row) => ({ 'data-testid': 'score-row', 'data-key': row.key })}
      detail={(row) => open === row.key && <Breakdown row={row} answer={answer} locale={locale} />}
    />
  );
}
