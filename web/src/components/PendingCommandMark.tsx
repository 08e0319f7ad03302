// A small clock shown on a device row while a command to it is queued (SPEC §4; owned by ACTIONS).
import { IconClockPause } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePendingFor, type PendingCommand } from '../stores/pendingCommands.ts';
import { Hint } from './floating.tsx';

export function PendingCommandMark({ deviceId }: { deviceId: number }) {
  const pending = usePendingFor(deviceId);
  // most rows have nothing pending: no translation hook for them (rows render by the dozen while scrolling)
  return pending.length ? <PendingMark pending={pending} /> : null;
}

function PendingMark({ pending }: { pending: PendingCommand[] }) {
  const { t } = useTranslation('actions');
  return (
    <Hint label={`${t('pending')}: ${pending.map((c) => c.type).join(', ')}`}>
      <IconClockPause size={14} color="var(--mantine-color-yellow-7)" data-testid="row-pending" />
    </Hint>
  );
}
