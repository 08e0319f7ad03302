// The `notifications` and `events` dialogs of the user menu (SPEC §2, bits 32 and 36): the same rule manager as
// /notifications in a modal; `events` is the device-bound variant (devices and a calendar required).
import { canSeeMenu, type RuleVariant } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { DialogFrame } from '../../components/DialogFrame.tsx';
import { useViewer } from '../../components/useCan.ts';
import { RuleManager } from './RuleManager.tsx';

function RulesDialog({ variant, onClose }: { variant: RuleVariant; onClose(): void }) {
  const { t } = useTranslation('notifications');
  const allowed = canSeeMenu(useViewer(), variant);
  return (
    <DialogFrame
      onClose={onClose}
      size={800}
      title={variant === 'events' ? t('eventsTitle') : t('title')}
      testId={`${variant}-dialog`}
      denied={!allowed && t('denied')}
    >
      <RuleManager variant={variant} />
    </DialogFrame>
  );
}

export function NotificationsDialog({ onClose }: DialogComponentProps) {
  return <RulesDialog variant="notifications" onClose={onClose} />;
}

export function EventsDialog({ onClose }: DialogComponentProps) {
  return <RulesDialog variant="events" onClose={onClose} />;
}
