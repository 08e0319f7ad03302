// Mounts every dialog opened with openDialog(name, props) (SPEC §2 "Global dialogs").
import { Button, Group, Modal, Text } from '@mantine/core';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { closeDialog, useDialogs, type OpenDialog } from '../shell/dialogs.ts';
import { dialogRegistry } from './dialogRegistry.ts';

function Unavailable({ dialog }: { dialog: OpenDialog }) {
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

export function DialogHost() {
  const open = useDialogs((s) => s.open);
  return (
    <>
      {open.map((d) => {
        const Component = dialogRegistry[d.name];
        if (!Component) return <Unavailable key={d.key} dialog={d} />;
        return (
          <Suspense key={d.key} fallback={null}>
            <Component props={d.props} onClose={() => closeDialog(d.key)} />
          </Suspense>
        );
      })}
    </>
  );
}
