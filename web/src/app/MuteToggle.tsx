// Sound mute toggle (SPEC §1, §4); the flag persists in localStorage isMuted.
import { ActionIcon } from '@mantine/core';
import { IconVolume, IconVolumeOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePrefs } from '../stores/prefs.ts';
import { Hint } from '../components/floating.tsx';

export function MuteToggle() {
  const { t } = useTranslation('shell');
  const muted = usePrefs((s) => s.isMuted);
  const toggle = usePrefs((s) => s.toggleMuted);
  const label = muted ? t('header.unmute') : t('header.mute');
  return (
    <Hint label={label}>
      <ActionIcon
        variant="subtle"
        onClick={toggle}
        aria-label={label}
        aria-pressed={muted}
        data-testid="mute-toggle"
      >
        {muted ? <IconVolumeOff size={20} /> : <IconVolume size={20} />}
      </ActionIcon>
    </Hint>
  );
}
