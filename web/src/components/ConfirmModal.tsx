// A question in a modal with "cancel" and a coloured "yes" (users: log in as, delete, suspend; invoices: mark as
// paid, cancel). Test ids: `testId` on the modal, `yesTestId` on the yes button.
import { Button, Group, Modal, Stack, Text } from '@mantine/core';

export function ConfirmModal(props: {
  title: string;
  question: string;
  testId: string;
  cancel: string;
  yes: string;
  yesTestId: string;
  color?: string;
  size?: string;
  loading: boolean;
  onYes(): void;
  onClose(): void;
}) {
  return (
    <Modal opened onClose={props.onClose} title={props.title} size={props.size} data-testid={props.testId}>
      <Stack gap="sm">
        <Text size="sm">{props.question}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {props.cancel}
          </Button>
          <Button
            color={props.color}
            onClick={props.onYes}
            loading={props.loading}
            data-testid={props.yesTestId}
          >
            {props.yes}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
