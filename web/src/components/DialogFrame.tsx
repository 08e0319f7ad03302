// The modal of a global dialog (issue #33): its title, width and test id, and instead of its content the red
// refusal when the viewer may not use it, the red load failure, or a spinner while its data loads.
import { Alert, Group, Loader, Modal, type ModalProps } from '@mantine/core';
import type { ReactNode } from 'react';

export function DialogFrame(props: {
  title: ReactNode;
  size?: ModalProps['size'];
  testId: string;
  onClose(): void;
  /** The refusal shown instead of the content (the viewer may not use this dialog). */
  denied?: string | false;
  /** A load failure shown instead of the content. */
  error?: ReactNode;
  loading?: boolean;
  children?: ReactNode;
}) {
  const { denied, error } = props;
  return (
    <Modal opened onClose={props.onClose} size={props.size} title={props.title} data-testid={props.testId}>
      {denied ? (
        <Alert color="red">{denied}</Alert>
      ) : error ? (
        <Alert color="red">{error}</Alert>
      ) : props.loading ? (
        <Group justify="center" p="md">
          <Loader size="sm" />
        </Group>
      ) : (
        props.children
      )}
    </Modal>
  );
}
