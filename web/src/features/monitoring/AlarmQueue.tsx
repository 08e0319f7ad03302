// The desk's queue (issue #32): one row per alarm, most urgent first, with its live timer; a list that works at
// 390 px (each row a button, the whole row the target).
import { Badge, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import type { Alarm, AlarmSeverity } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { alarmAge } from './queue.ts';

export const SEVERITY_COLOR: Record<AlarmSeverity, string> = {
  critical: 'red',
  high: 'orange',
  medium: 'yellow',
  low: 'gray',
};

const STATE_COLOR = { open: 'red', acknowledged: 'blue', resolved: 'green' } as const;

export function AlarmQueue({
  alarms,
  now,
  selectedId,
  onSelect,
  large = false,
}: {
  alarms: readonly Alarm[];
  now: number;
  selectedId: number | null;
  onSelect: (alarm: Alarm) => void;
  /** The desk's large type (a badge's font size is its own, not the theme's). */
  large?: boolean;
}) {
  const { t } = useTranslation('monitoring');
  if (!alarms.length)
    return (
      <Text c="dimmed" size="sm" data-testid="alarm-queue-empty">
        {t('empty')}
      </Text>
    );
  return (
    <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid="alarm-queue">
      {alarms.map((a) => (
        <li key={a.id}>
          <UnstyledButton
            onClick={() => onSelect(a)}
            data-testid="alarm-row"
            data-alarm-id={a.id}
            data-state={a.state}
            aria-current={a.id === selectedId ? 'true' : undefined}
            w="100%"
            p="xs"
            style={{
              borderRadius: 8,
              border: '1px solid var(--mantine-color-default-border)',
              borderLeft: `6px solid var(--mantine-color-${SEVERITY_COLOR[a.severity]}-6)`,
              background: a.id === selectedId ? 'var(--mantine-color-default-hover)' : undefined,
            }}
          >
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Stack gap={0} style={{ minWidth: 0 }}>
                <Text fw={700} size="sm" truncate data-testid="alarm-row-type">
                  {t(`common:alarms.type.${a.type}`)}
                  {a.count > 1 ? ` ×${a.count}` : ''}
                </Text>
                <Text size="sm" truncate>
                  {a.deviceName}
                </Text>
                {a.assignedUserName && (
                  <Text size="xs" c="dimmed" truncate>
                    {t('assignedTo', { name: a.assignedUserName })}
                  </Text>
                )}
              </Stack>
              <Stack gap={2} align="flex-end">
                <Text ff="monospace" fw={700} size="sm" data-testid="alarm-age" aria-label={t('age')}>
                  {alarmAge(a.time, now)}
                </Text>
                <Badge size={large ? 'lg' : 'sm'} color={STATE_COLOR[a.state]} variant="light">
                  {t(`common:alarms.state.${a.state}`)}
                </Badge>
              </Stack>
            </Group>
          </UnstyledButton>
        </li>
      ))}
    </Stack>
  );
}
