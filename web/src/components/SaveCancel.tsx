// The footer of the edit dialogs: "cancel" (or "close") and "save", right-aligned. Test ids as the dialog names them.
import { Button, Group } from '@mantine/core';

export function SaveCancel(props: {
  cancel: string;
  save: string;
  onCancel(): void;
  onSave(): void;
  loading?: boolean;
  disabled?: boolean;
  cancelTestId?: string;
  saveTestId?: string;
  gap?: string;
}) {
  return (
    <Group justify="flex-end" gap={props.gap}>
      <Button variant="default" onClick={props.onCancel} data-testid={props.cancelTestId}>
        {props.cancel}
      </Button>
      <Button
        onClick={props.onSave}
        loading={props.loading}
        disabled={props.disabled}
        data-testid={props.saveTestId}
      >
        {props.save}
      </Button>
    </Group>
  );
}
