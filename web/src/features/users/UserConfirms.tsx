// The users page's confirmations (SPEC §5, §6): log in as a user, delete a user, suspend or reactivate a customer.
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UsersDialogs } from './useUsersList.ts';

function Confirm(props: {
  title: string;
  question: string;
  testId: string;
  yes: string;
  yesTestId: string;
  color?: string;
  loading: boolean;
  onYes(): void;
  onClose(): void;
}) {
  const { t } = useTranslation('users');
  return (
    <Modal opened onClose={props.onClose} title={props.title} data-testid={props.testId}>
      <Stack>
        <Text size="sm">{props.question}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={props.onClose}>
            {t('cancel')}
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

export function UserConfirms({ d }: { d: UsersDialogs }) {
  const { t } = useTranslation('users');
  const { loginAs, deleting, suspension } = d;
  return (
    <>
      {loginAs && (
        <Confirm
          title={t('loginAs.title', { name: loginAs.name || loginAs.email })}
          question={t('loginAs.question', { name: loginAs.name || loginAs.email })}
          testId="user-login-as-confirm"
          yes={t('loginAs.confirm')}
          yesTestId="user-login-as-yes"
          loading={d.switching}
          onYes={() => void d.confirmLoginAs()}
          onClose={() => d.setLoginAs(null)}
        />
      )}
      {deleting && (
        <Confirm
          title={t('deleteTitle')}
          question={t('deleteQuestion', { name: deleting.name })}
          testId="user-delete-confirm"
          yes={t('delete')}
          yesTestId="user-delete-yes"
          color="red"
          loading={d.deletePending}
          onYes={() => void d.confirmDelete()}
          onClose={() => d.setDeleting(null)}
        />
      )}
      {suspension && (
        <Confirm
          title={t(`billing.${suspension.action}.title`)}
          question={t(`billing.${suspension.action}.question`, { name: suspension.user.name })}
          testId="user-suspension-confirm"
          yes={t(`billing.${suspension.action}.button`)}
          yesTestId="user-suspension-yes"
          color={suspension.action === 'suspend' ? 'orange' : 'green'}
          loading={d.suspending}
          onYes={() => void d.confirmSuspension()}
          onClose={() => d.setSuspension(null)}
        />
      )}
    </>
  );
}
