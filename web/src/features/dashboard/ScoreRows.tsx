// The scores ranking's rows (GET /{ns}/scores): a table on a wide screen, one card per driver or vehicle on a phone
// (issue #29: at 390 px nothing is cut off nor hidden behind a sideways scroll). A row's name opens its breakdown:
// each component's measure, weight and points lost.
import { Badge, Group, Paper, Stack, Table, Text, UnstyledButton } from '@mantine/core';
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
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../components/useIsMobile.ts';

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

function ScoreCards({ answer, units, locale, open, onOpen }: ScoreRowsProps) {
  const { t } = useTranslation('dashboard');
  return (
    <Stack gap={6} data-testid="scores-table">
      {answer.rows.map((row, i) => (
        <Paper key={row.key} withBorder p="xs" data-testid="score-row" data-key={row.key}>
          <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <Text size="sm" c="dimmed" aria-label={t('common:scores.column.rank')}>
                {i + 1}.
              </Text>
              <OpenButton row={row} open={open} onOpen={onOpen} />
            </Group>
            <div data-testid="score-value" data-value={row.breakdown.score ?? ''}>
              <ScoreValue score={row.breakdown.score} />
            </div>
          </Group>
          <Text size="xs" c="dimmed">
            {t('scores.distance')}: {formatDistance(row.distance, units.distanceUnit, locale, 1)} ·{' '}
            {t('scores.drivingTime')}: {formatDuration(row.drivingMs)}
          </Text>
          {open === row.key && <Breakdown row={row} answer={answer} locale={locale} />}
        </Paper>
      ))}
    </Stack>
  );
}

function ScoreTable({ answer, by, units, locale, open, onOpen }: ScoreRowsProps) {
  const { t } = useTranslation('dashboard');
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table fz="sm" highlightOnHover data-testid="scores-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('common:scores.column.rank')}</Table.Th>
            <Table.Th>{t(`common:scores.column.${by}`)}</Table.Th>
            <Table.Th>{t('common:scores.column.score')}</Table.Th>
            <Table.Th>{t('scores.distance')}</Table.Th>
            <Table.Th>{t('scores.drivingTime')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {answer.rows.map((row, i) => (
            <Fragment key={row.key}>
              <Table.Tr data-testid="score-row" data-key={row.key}>
                <Table.Td>{i + 1}</Table.Td>
                <Table.Td>
                  <OpenButton row={row} open={open} onOpen={onOpen} />
                </Table.Td>
                <Table.Td data-testid="score-value" data-value={row.breakdown.score ?? ''}>
                  <ScoreValue score={row.breakdown.score} />
                </Table.Td>
                <Table.Td>{formatDistance(row.distance, units.distanceUnit, locale, 1)}</Table.Td>
                <Table.Td>{formatDuration(row.drivingMs)}</Table.Td>
              </Table.Tr>
              {open === row.key && (
                <Table.Tr>
                  <Table.Td colSpan={5}>
                    <Breakdown row={row} answer={answer} locale={locale} />
                  </Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The ranking: cards on a phone, a table otherwise. */
export function ScoreRows(props: ScoreRowsProps) {
  return useIsMobile() ? <ScoreCards {...props} /> : <ScoreTable {...props} />;
}
