// The footer of the edit dialogs: "cancel" (or "close") and "save", right-aligned; their texts are the common
// "Cancelar" and "Salvar" unless the dialog names its own. Test ids as the dialog names them.
import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function SaveCancel(props: {
  cancel?: string;
  save?: string;
  onCancel(): void;
  onSave(): void;
  loading?: boolean;
  disabled?: boolean;
  cancelTestId?: string;
  saveTestId?: string;
  gap?: string;
}) {
  const { t } = useTranslation('common');
  return (
    <Group justify="flex-end" gap={props.gap}>
      <Button variant="default" onClick={props.onCancel} data-testid={props.cancelTestId}>
        {props.cancel ?? t('cancel')}
      </Button>
      <Button
        onClick={props.onSave}
        loading={props.loading}
        disabled={props.disabled}
        data-testid={props.saveTestId}
      >
        {props.save ?? t('save')}
      </Button>
    </Group>
  );
}
