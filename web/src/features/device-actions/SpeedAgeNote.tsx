// The engine-block dialog says what the interlock knows (issue #27): when the device's newest speed is old (past
// the interlock's 5 minutes, domain speedAge), it shows that speed and its age in the reader's language. The block
// is still allowed (a vehicle whose tracker is jammed must stay blockable); the server logs the same speed and age.
import { Alert } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { formatSpeed, formatSpeedAge, speedAge } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { useNow } from '../../components/useNow.ts';
import { useUnits } from '../../i18n/useUnits.ts';
import { useLive } from '../../stores/live.ts';

/** How often the shown age is brought up to date while the dialog is open. */
const AGE_TICK_MS = 30_000;

export function SpeedAgeNote({ deviceId }: { deviceId: number }) {
  const { t, i18n } = useTranslation('actions');
  const position = useLive((s) => s.positions[deviceId]);
  const units = useUnits();
  const now = useNow(AGE_TICK_MS);
  const age = speedAge(position ?? null, now);
  if (!position || !age?.old || age.ageMs === null) return null;
  return (
    <Alert color="yellow" icon={<IconClockExclamation size={18} />} data-testid="action-speed-age">
      {t('block.speedAge', {
        speed: formatSpeed(position.speed, units.speedUnit, i18n.language),
        age: formatSpeedAge(age.ageMs, i18n.language),
      })}
    </Alert>
  );
}
