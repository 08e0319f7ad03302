// "Add device" on the device list header (issue #5, owned by ACTIONS): opens the deviceEdit dialog empty.
import { ActionIcon, Tooltip } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../components/useCan.ts';
import { openDialog } from '../../shell/dialogs.ts';

export function AddDeviceButton() {
  const { t } = useTranslation('deviceEdit');
  if (!useCan('device.create')) return null;
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
