// "Add device" on the device list header (issue #5, owned by ACTIONS): opens the deviceEdit dialog empty.
import { ActionIcon, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { canEditDevices } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { openDialog } from '../../shell/dialogs.ts';
import { useSession } from '../../stores/session.ts';

export function AddDeviceButton() {
  const { t } = useTranslation('deviceEdit');
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  if (!canEditDevices({ user, server, isPlus, ns }, 'create')) return null;
  return (
    <Tooltip label={t('add')}>
      <ActionIcon
        size="sm"
        variant="light"
        aria-label={t('add')}
        onClick={() => openDialog('deviceEdit', {})}
        data-testid="device-add"
      >
        <IconPlus size={14} />
      </ActionIcon>
    </Tooltip>
  );
}
