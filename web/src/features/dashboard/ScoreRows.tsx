// The scores ranking's rows (GET /{ns}/scores) in the catalogue table: a table on a wide screen, one card per driver
// or vehicle on a phone (issue #29: at 390 px nothing is cut off nor hidden behind a sideways scroll). A row's name
// opens its breakdown under it: each component's measure, weight and points lost.
import { Badge, Group, Table, Text, UnstyledButton } from '@mantine/core';
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
import { CatalogueTable, type CatalogueColumn } from '../../components/CatalogueTable.tsx';

const scoreColor = (s: number) => (s >= 80 ? 'green' : s >= 60 ? 'yellow' : 'red');

function Breakdown({ row, answer, locale }: { row: ScoreRow; answer: ScoresAnswer; locale: string }) {
  const { t } = useTranslation('common');
  return (
    <Table fz="xs" withTableBorder data-testid="score-breakdown">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('dashboard:scores.component')}</Table.Th>
          <Table.Th>{t('dashboard:scores.measured')}</Table.Th>
          <Table.Th>{t('dashboard:scores.weight')}</Table.Th>
          <Table.Th>{t('dashboard:scores.lost')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {SCORE_WEIGHT_KEYS.map((k) => (
          <Table.Tr key={k} data-component={k}>
            <Table.Td>{t(`scores.column.${k}`)}</Table.Td>
            <Table.Td data-testid="component-value">
              {formatNumber(row.breakdown[k].value, locale, 1)}
            </Table.Td>
            <Table.Td>{formatNumber(answer.weights[k], locale, 1)}</Table.Td>
            <Table.Td data-testid="component-penalty">
              −{formatNumber(row.breakdown[k].penalty, locale, 1)}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Caption>
        {t('scores.column.source')}:{' '}
        {t(row.breakdown.fromAlarms ? 'scores.source.alarms' : 'scores.source.positions')}
      </Table.Caption>
    </Table>
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

type RankedRow = ScoreRow & { id: number };

/** The ranking, best first (the rank is the row's place, its id in the table). */
export function ScoreRows({ answer, by, units, locale, open, onOpen }: ScoreRowsProps) {
  const { t } = useTranslation('dashboard');
  const rows: RankedRow[] = answer.rows.map((row, i) => ({ ...row, id: i + 1 }));
  const columns: CatalogueColumn<RankedRow>[] = [
    { key: 'rank', header: t('common:scores.column.rank'), cell: (row) => row.id },
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
    <CatalogueTable
      rows={rows}
      columns={columns}
      testId="scores-table"
      rowTestId="score-row"
      rowAttrs={(row) => ({ 'data-key': row.key })}
      detail={(row) => open === row.key && <Breakdown row={row} answer={answer} locale={locale} />}
    />
  );
}
