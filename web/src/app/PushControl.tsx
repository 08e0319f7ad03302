// Push-notification control: asks the browser's permission and registers for push when config.json enables it.
import { notifications } from '@mantine/notifications';
import { IconBellOff, IconBellRinging, IconBellQuestion } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pushState, registerPush, type PushState } from './push.ts';
import { HintIcon } from '../components/floating.tsx';
import { useBranding } from '../branding/index.ts';

export function PushControl() {
  const { t } = useTranslation('shell');
  const { enabled, vapidPublicKey } = useBranding().push;
  const [state, setState] = useState<PushState>(() => pushState());
  if (state === 'unsupported') return null;

  async function onClick() {
    let next = state;
    if (state === 'default') {
      next = (await Notification.requestPermission()) as PushState;
      setState(next);
    }
    if (next === 'denied') {
      notifications.show({ color: 'yellow', message: t('push.deniedHelp') });
      return;
    }
    if (next !== 'granted') return;
    if (!enabled || !vapidPublicKey) {
      notifications.show({ message: t('push.notConfigured') });
      return;
    }
    try {
      await registerPush(vapidPublicKey);
      notifications.show({ color: 'teal', message: t('push.registered') });
    } catch (err) {
      console.warn('push registration failed', err);
      notifications.show({ color: 'red', message: t('push.failed') });
    }
  }

  const label = t(`push.${state}`);
  const Icon = state === 'granted' ? IconBellRinging : state === 'denied' ? IconBellOff : IconBellQuestion;
  return (
    <HintIcon label={label} onClick={() => void onClick()} data-testid="push-control" data-state={state}>
      <Icon size={20} />
    </HintIcon>
  );
}
