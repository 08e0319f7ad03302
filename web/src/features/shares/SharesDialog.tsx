// The global `shares` dialog (SPEC §2 global dialogs, Plus only): every shared link the user manages, with the
// countdown, copy, change of expiry and revoke of ShareList. Opened with openDialog('shares').
import { Alert, Modal } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../components/useCan.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { useSession } from '../../stores/session.ts';
import { ShareList } from './ShareList.tsx';

export function SharesDialog({ onClose }: DialogComponentProps) {
  const { t } = useTranslation('shares');
  const { t: tc } = useTranslation('common');
  const isPlus = useSession((s) => s.isPlus);
  const allowed = useCan('shares.manage');
  return (
    <Modal opened onClose={onClose} size="xl" title={t('listTitle')} data-testid="shares-dialog">
      {allowed ? (
        <ShareList />
      ) : (
        <Alert color="red" data-testid="shares-denied">
          {isPlus
            ? tc('denied.permission', {
                action: tc('permissions.action.view'),
                area: tc('permissions.area.share'),
              })
            : tc('share.needsPlus')}
        </Alert>
      )}
    </Modal>
  );
}
