// The red "delete this?" box the list dialogs show under their table (drivers, calendars, maintenance).
// Test ids: `${testId}-confirm` on the box and `${testId}-yes` on the delete button.
import { Alert, Button, Group, Stack, Text } from '@mantine/core';

export function InlineDeleteConfirm({
  title,
  question,
  cancelLabel,
  deleteLabel,
  onCancel,
  onConfirm,
  loading,
  testId,
}: {
  title: string;
  question: string;
  cancelLabel: string;
  deleteLabel: string;
  onCancel(): void;
  onConfirm(): void;
  loading: boolean;
  testId: string;
}) {
  return (
    <Alert color="red" title={title} data-testid={`${testId}-confirm`}>
      <Stack gap="xs">
        <Text size="sm">{question}</Text>
        <Group justify="flex-end">
          <Button size="xs" variant="default" onClick={onCancel}>
            {cancelLabel}
          </Button>
          <Button size="xs" color="red" onClick={onConfirm} loading={loading} data-testid={`${testId}-yes`}>
            {deleteLabel}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}
