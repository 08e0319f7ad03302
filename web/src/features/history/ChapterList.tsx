// The history's chapters beside the map (issue #14): each trip and stop of the period with its start, end,
// duration, distance, top speed and addresses; choosing one zooms to it and plays only it, "whole period" goes
// back. Keyboard: every chapter is a button.
import { Badge, Button, Group, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { formatDistance, formatDuration, formatSpeed, type Chapter, type Units } from '@rastro/domain';
import { useTranslation } from 'react-i18next';

interface Props {
  chapters: readonly Chapter[];
  selected: number | null;
  onSelect(index: number | null): void;
  units: Units;
  locale: string;
  formatTime(ms: number): string;
}

export function ChapterList({ chapters, selected, onSelect, units, locale, formatTime }: Props) {
  const { t } = useTranslation('history');
  if (chapters.length === 0)
    return (
      <Text size="xs" c="dimmed" data-testid="history-chapters-none">
        {t('chapters.none')}
      </Text>
    );
  return (
    <Stack gap={4} data-testid="history-chapters">
      <Group justify="space-between">
        <Text size="sm" fw={600}>
          {t('chapters.title')}
        </Text>
        {selected !== null && (
          <Button
            size="compact-xs"
            variant="subtle"
            onClick={() => onSelect(null)}
            data-testid="history-chapter-all"
          >
            {t('chapters.all')}
          </Button>
        )}
      </Group>
      <ScrollArea.Autosize mah={220}>
        <Stack gap={2}>
          {chapters.map((c) => (
            <UnstyledButton
              key={c.index}
              onClick={() => onSelect(c.index)}
              aria-pressed={selected === c.index}
              data-testid="history-chapter"
              data-kind={c.kind}
              data-start={c.start}
              data-end={c.end}
              p={4}
              style={{
                borderRadius: 4,
                background: selected === c.index ? 'var(--mantine-color-blue-light)' : undefined,
              }}
            >
              <Group gap={6} wrap="nowrap">
                {/* the badge keeps its width (no "PARA…", issue #29); the times wrap beside it instead */}
                <Badge
                  size="xs"
                  color={c.kind === 'trip' ? 'blue' : 'orange'}
                  variant="light"
                  style={{ flexShrink: 0, maxWidth: 'none' }}
                >
                  {t(`chapters.${c.kind}`)}
                </Badge>
                <Text size="xs" style={{ minWidth: 0 }}>
                  {formatTime(c.start)} – {formatTime(c.end)} · {formatDuration(c.durationMs)}
                </Text>
              </Group>
              {c.kind === 'trip' && (
                <Text size="xs" c="dimmed">
                  {t('chapters.tripFigures', {
                    distance: formatDistance(c.distance, units.distanceUnit, locale),
                    maxSpeed: formatSpeed(c.maxSpeed, units.speedUnit, locale),
                  })}
                </Text>
              )}
              {(c.startAddress || c.endAddress) && (
                <Text size="xs" c="dimmed" lineClamp={1}>
                  {c.kind === 'trip' ? `${c.startAddress ?? '…'} → ${c.endAddress ?? '…'}` : c.startAddress}
                </Text>
              )}
            </UnstyledButton>
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </Stack>
  );
}
