// SPEC §4/§8: when a shared link expires the session is cleared and 'Sua sessão expirou!' (titled 'Atenção',
// button 'Sair') forces a reload.
import { Button, Group, Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function SessionExpired({ opened, onLeave }: { opened: boolean; onLeave: () => void }) {
  const { t } = useTranslation('shell');
  return (
    <Modal
      opened={opened}
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
      title={t('expired.title')}
      data-testid="session-expired"
    >
      <Text>{t('expired.message')}</Text>
      <Group justify="flex-end" mt="md">
        <Button color="red" onClick={onLeave} data-testid="session-expired-leave">
          {t('expired.leave')}
        </Button>
      </Group>
    </Modal>
  );
}
