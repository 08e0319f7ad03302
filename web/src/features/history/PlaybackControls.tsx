// The playback bar of /history: play / pause, speed, the scrubber with the events as marks, and the time, speed
// and address of the vehicle's current point.
import { ActionIcon, Group, Select, Slider, Stack, Text } from '@mantine/core';
import { IconPlayerPauseFilled, IconPlayerPlayFilled } from '@tabler/icons-react';
import { formatSpeed, PLAYBACK_SPEEDS, type Units } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import type { Playback } from './usePlayback.ts';

export function PlaybackControls({
  playback,
  eventMarks,
  address,
  units,
  locale,
  formatTime,
}: {
  playback: Playback;
  eventMarks: Array<{ value: number }>;
  /** The current point's address, when it has one. */
  address: string | null | undefined;
  units: Units;
  locale: string;
  formatTime(ms: number): string;
}) {
  const { t } = useTranslation('history');
  const frame = playback.frame;
  return (
    <>
      <Group gap="xs" wrap="nowrap">
        <ActionIcon
          size="lg"
          onClick={playback.playing ? playback.pause : playback.play}
          aria-label={playback.playing ? t('pause') : t('play')}
          data-testid="history-play"
          data-playing={playback.playing ? 'true' : 'false'}
        >
          {playback.playing ? <IconPlayerPauseFilled size={18} /> : <IconPlayerPlayFilled size={18} />}
        </ActionIcon>
        <Select
          aria-label={t('speed')}
          w={90}
          data={PLAYBACK_SPEEDS.map((s) => ({ value: String(s), label: `${s}×` }))}
          value={String(playback.speed)}
          onChange={(v) => v && playback.setSpeed(Number(v))}
          allowDeselect={false}
          data-testid="history-speed"
          comboboxProps={{ withinPortal: true }}
        />
        <Slider
          style={{ flex: 1 }}
          min={0}
          max={Math.max(1, playback.duration)}
          step={1}
          value={Math.min(playback.t, Math.max(1, playback.duration))}
          onChange={playback.seek}
          marks={eventMarks}
          label={frame ? formatTime(frame.time) : null}
          aria-label={t('scrubber')}
          data-testid="history-scrubber"
        />
      </Group>
      {frame && (
        <Stack gap={2} data-testid="history-current" data-index={frame.index}>
          <Text size="sm" fw={600} data-testid="history-time" data-time={Math.round(frame.time)}>
            {formatTime(frame.time)}
          </Text>
          <Text size="sm" data-testid="history-speed-now">
            {t('speedNow', { speed: formatSpeed(frame.speed, units.speedUnit, locale) })}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={2} data-testid="history-address">
            {address || `${frame.latitude.toFixed(5)}, ${frame.longitude.toFixed(5)}`}
          </Text>
        </Stack>
      )}
    </>
  );
}
