// Sound mute toggle (SPEC §1, §4); the flag persists in localStorage isMuted.
import { IconVolume, IconVolumeOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePrefs } from '../stores/prefs.ts';
import { HintIcon } from '../components/floating.tsx';

export function MuteToggle() {
  const { t } = useTranslation('shell');
  const muted = usePrefs((s) => s.isMuted);
  const toggle = usePrefs((s) => s.toggleMuted);
  const label = muted ? t('header.unmute') : t('header.mute');
  return (
    <HintIcon label={label} onClick={toggle} aria-pressed={muted} data-testid="mute-toggle">
      {muted ? <IconVolumeOff size={20} /> : <IconVolume size={20} />}
    </HintIcon>
  );
}
