// A small clock shown on a device row while a command to it is queued (SPEC §4; owned by ACTIONS).
import { Tooltip } from '@mantine/core';
import { IconClockPause } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePendingFor } from '../stores/pendingCommands.ts';

export function PendingCommandMark({ deviceId }: { deviceId: number }) {
  const { t } = useTranslation('actions');
  const pending = usePendingFor(deviceId);
  if (!pending.length) return null;
  return (
    <Tooltip label={`${t('pending')}: ${pending.map((c) => c.type).join(', ')}`}>
      <IconClockPause size={14} color="var(--mantine-color-yellow-7)" data-testid="row-pending" />
    </Tooltip>
  );
}
