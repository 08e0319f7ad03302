// The `notifications` and `events` dialogs of the user menu (SPEC §2, bits 32 and 36): the same rule manager as
// /notifications in a modal; `events` is the device-bound variant (devices and a calendar required).
import { Alert, Modal } from '@mantine/core';
import { canSeeMenu, type RuleVariant } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { useSession } from '../../stores/session.ts';
import { RuleManager } from './RuleManager.tsx';

function RulesDialog({ variant, onClose }: { variant: RuleVariant; onClose(): void }) {
  const { t } = useTranslation('notifications');
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  const allowed = canSeeMenu({ user, server, isPlus, ns }, variant);
  return (
    <Modal
      opened
      onClose={onClose}
      size={800}
      title={variant === 'events' ? t('eventsTitle') : t('title')}
      data-testid={`${variant}-dialog`}
    >
      {allowed ? <RuleManager variant={variant} /> : <Alert color="red">{t('denied')}</Alert>}
    </Modal>
  );
}

export function NotificationsDialog({ onClose }: DialogComponentProps) {
  return <RulesDialog variant="notifications" onClose={onClose} />;
}

export function EventsDialog({ onClose }: DialogComponentProps) {
  return <RulesDialog variant="events" onClose={onClose} />;
}
