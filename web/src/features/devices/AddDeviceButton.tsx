// "Add device" on the device list header (issue #5, owned by ACTIONS): opens the deviceEdit dialog empty.
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { HintIcon } from '../../components/floating.tsx';
import { useCan } from '../../components/useCan.ts';
import { openDialog } from '../../shell/dialogs.ts';

export function AddDeviceButton() {
  const { t } = useTranslation('deviceEdit');
  if (!useCan('device.create')) return null;
  return (
    <HintIcon
      label={t('add')}
      size="sm"
      variant="light"
      onClick={() => openDialog('deviceEdit', {})}
      data-testid="device-add"
    >
      <IconPlus size={14} />
    </HintIcon>
  );
}
