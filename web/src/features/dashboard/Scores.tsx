// The scores ranking (GET /{ns}/scores): drivers or vehicles, best first, with the score and what it is made of; a
// row opens its breakdown (each component's measure, weight and points lost), Excel comes from the server.
import { Alert, Badge, Button, Group, SegmentedControl, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconFileSpreadsheet } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  formatDistance,
  formatDuration,
  formatNumber,
  SCORE_WEIGHT_KEYS,
  XLSX_ACCEPT,
  type ScoreRow,
  type ScoresAnswer,
  type ScoreSubject,
  type Units,
} from '@rastro/domain';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ext, serverMessage } from '../../api/http.ts';
import { downloadBlob, fileStem } from '../../components/xlsx.ts';
import { scoresQuery, type InsightsFilter } from './dashboardQuery.ts';

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

export function Scores({ filter, units, locale }: { filter: InsightsFilter; units: Units; locale: string }) {
  const { t } = useTranslation('dashboard');
  const [by, setBy] = useState<ScoreSubject>('driver');
  const [open, setOpen] = useState<string | null>(null);
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const query = scoresQuery(filter, by);
  const scores = useQuery({
    queryKey: ['scores', query],
    queryFn: () => ext.get<ScoresAnswer>(`/scores?${query}`),
    placeholderData: keepPreviousData,
  });

  const exportXlsx = async () => {
    setExporting(true);
    setExportError(null);
    try {
      const res = await ext.request<Blob>('GET', `/scores?${query}`, {
        headers: { Accept: XLSX_ACCEPT },
        responseType: 'blob',
      });
      downloadBlob(
        res.data,
        `${fileStem(t(`common:scores.sheet.${by}`), filter.from.slice(0, 10), filter.to.slice(0, 10))}.xlsx`,
        XLSX_ACCEPT,
      );
    } catch (err) {
      setExportError(serverMessage(err) ?? t('error'));
    } finally {
      setExporting(false);
    }
  };

  const answer = scores.data;
  return (
    <>
      <Group justify="space-between" gap="xs">
        <SegmentedControl
          value={by}
          onChange={(v) => {
            setBy(v as ScoreSubject);
            setOpen(null);
          }}
          data={[
            { value: 'driver', label: t('scores.drivers') },
            { value: 'device', label: t('scores.vehicles') },
          ]}
          aria-label={t('scores.subject')}
          data-testid="scores-subject"
        />
        <Button
          variant="default"
          size="xs"
          leftSection={<IconFileSpreadsheet size={16} />}
          loading={exporting}
          disabled={!answer || answer.rows.length === 0}
          onClick={() => void exportXlsx()}
          data-testid="scores-excel"
        >
          {t('scores.excel')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('scores.explain')}
      </Text>
      {exportError && <Alert color="red">{exportError}</Alert>}
      {scores.isError && (
        <Alert color="red" data-testid="scores-error">
          {serverMessage(scores.error) ?? t('error')}
        </Alert>
      )}
      {answer && answer.rows.length === 0 && (
        <Alert color="yellow" data-testid="scores-empty">
          {t(by === 'driver' ? 'scores.noDrivers' : 'scores.noVehicles')}
        </Alert>
      )}
      {answer && answer.rows.length > 0 && (
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
              {answer.rows.map((row, i) => {
                const expanded = open === row.key;
                const score = row.breakdown.score;
                return (
                  <Fragment key={row.key}>
                    <Table.Tr data-testid="score-row" data-key={row.key}>
                      <Table.Td>{i + 1}</Table.Td>
                      <Table.Td>
                        <UnstyledButton
                          onClick={() => setOpen(expanded ? null : row.key)}
                          aria-expanded={expanded}
                          data-testid="score-open"
                        >
                          <Group gap={4} wrap="nowrap">
                            {expanded ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
                            <Text size="sm">{row.name}</Text>
                          </Group>
                        </UnstyledButton>
                      </Table.Td>
                      <Table.Td data-testid="score-value" data-value={score ?? ''}>
                        {score === null ? (
                          <Text size="xs" c="dimmed">
                            {t('common:scores.noScore')}
                          </Text>
                        ) : (
                          <Badge color={scoreColor(score)} variant="light">
                            {score}
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>{formatDistance(row.distance, units.distanceUnit, locale, 1)}</Table.Td>
                      <Table.Td>{formatDuration(row.drivingMs)}</Table.Td>
                    </Table.Tr>
                    {expanded && (
                      <Table.Tr>
                        <Table.Td colSpan={5}>
                          <Breakdown row={row} answer={answer} locale={locale} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </>
  );
}
