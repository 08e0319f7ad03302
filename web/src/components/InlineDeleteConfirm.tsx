// The red "delete this?" box the catalogue managers show under their list (components/CatalogueList.tsx).
// Test ids: `${testId}-confirm` on the box and `${testId}-yes` on the delete button.
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function InlineDeleteConfirm({
  title,
  question,
  note,
  cancelLabel,
  deleteLabel,
  onCancel,
  onConfirm,
  loading,
  testId,
}: {
  title: string;
  question: string;
  /** A dimmed line under the question (what else the delete takes). */
  note?: ReactNode;
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
        {note && (
          <Text size="xs" c="dimmed">
            {note}
          </Text>
        )}
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
