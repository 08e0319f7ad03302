// The dialog shown for a name no feature has registered: a chunk of its own, like every dialog, so the entry
// chunk carries no modal code.
import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { closeDialog, type OpenDialog } from '../shell/dialogs.ts';

export function Unavailable({ dialog }: { dialog: OpenDialog }) {
  const { t } = useTranslation('shell');
  const onClose = () => closeDialog(dialog.key);
  return (
    <Modal
      opened
      onClose={onClose}
      title={t(`dialogs.${dialog.name}`, { defaultValue: dialog.name })}
      data-testid="dialog-unavailable"
    >
      <Text size="sm">{t('dialogs.unavailable')}</Text>
      <Group justify="flex-end" mt="md">
        <Button onClick={onClose}>{t('close', { ns: 'common' })}</Button>
      </Group>
    </Modal>
  );
}
