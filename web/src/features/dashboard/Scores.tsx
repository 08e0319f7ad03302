// The scores ranking (GET /{ns}/scores): drivers or vehicles, best first, with the score and what it is made of; a
// row opens its breakdown (ScoreRows: a table, or cards on a phone), Excel comes from the server.
import { Alert, Button, Group, SegmentedControl, Text } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { ScoresAnswer, ScoreSubject, Units } from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ext } from '../../api/http.ts';
import { downloadServerXlsx, fileStem } from '../../components/xlsx.ts';
import { scoresQuery, type InsightsFilter } from './dashboardQuery.ts';
import { ScoreRows } from './ScoreRows.tsx';
import { RequestError } from '../../components/RequestError.tsx';

export function Scores({ filter, units, locale }: { filter: InsightsFilter; units: Units; locale: string }) {
  const { t } = useTranslation('dashboard');
  const [by, setBy] = useState<ScoreSubject>('driver');
  const [open, setOpen] = useState<string | null>(null);
  const query = scoresQuery(filter, by);
  const scores = useQuery({
    queryKey: ['scores', query],
    queryFn: () => ext.get<ScoresAnswer>(`/scores?${query}`),
    placeholderData: keepPreviousData,
  });

  const exportXlsx = useMutation({
    mutationFn: () =>
      downloadServerXlsx(
        `/scores?${query}`,
        {},
        fileStem(t(`common:scores.sheet.${by}`), filter.from.slice(0, 10), filter.to.slice(0, 10)),
      ),
  });

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
          loading={exportXlsx.isPending}
          disabled={!answer || answer.rows.length === 0}
          onClick={() => exportXlsx.mutate()}
          data-testid="scores-excel"
        >
          {t('scores.excel')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('scores.explain')}
      </Text>
      <RequestError error={exportXlsx.error} fallback={t('error')} />
      <RequestError error={scores.error} fallback={t('error')} testId="scores-error" />
      {answer && answer.rows.length === 0 && (
        <Alert color="yellow" data-testid="scores-empty">
          {t(by === 'driver' ? 'scores.noDrivers' : 'scores.noVehicles')}
        </Alert>
      )}
      {answer && answer.rows.length > 0 && (
        <ScoreRows answer={answer} by={by} units={units} locale={locale} open={open} onOpen={setOpen} />
      )}
    </>
  );
}
