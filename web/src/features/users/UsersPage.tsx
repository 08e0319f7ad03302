// /users (SPEC §2, §6): the users the caller manages (administrators: everyone; shared-link guests hidden), searchable
// by name and e-mail, with administrator / manager / read-only / disabled badges and the expiry. Create and edit
// open the `userEdit` dialog; delete asks first. SPEC §5: no delete button on oneself, no edit / delete /
// suspend on a superior administrator (the first administrator, or one managing the caller); "link
// devices" ticks the caller's devices for a user; Excel import creates users from a sheet. With billing on
// ({ns}.enableBilling), administrators see each customer's account state (suspended / trust until) and suspend or
// reactivate him (POST /{ns}/users/{id}/suspend | reactivate, after a confirmation). Each user is a card
// (UserCard) so nothing is wider than a 390 px phone or the desktop panel (issue #29); the state and actions live
// in useUsersList.
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconFileSpreadsheet, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ConfirmModal } from '../../components/ConfirmModal.tsx';
import { SearchInput } from '../../components/SearchInput.tsx';
import { useCan } from '../../components/useCan.ts';
import { ImportUsersModal } from './ImportUsersModal.tsx';
import { LinkDevicesModal } from './LinkDevicesModal.tsx';
import { MessageDialog } from './MessageDialog.tsx';
import { UserCard } from './UserCard.tsx';
import { useUsersList } from './useUsersList.ts';

export function UsersPage() {
  const { t } = useTranslation('users');
  // the access table: permission bit 16 (SPEC §2) and a user list that loads (§6: admins and managers)
  if (!useCan('screen.users')) {
    return (
      <Alert color="yellow" data-testid="users-no-access">
        {t('noAccess')}
      </Alert>
    );
  }
  return <UsersList />;
}

function UsersList() {
  const { t } = useTranslation('users');
  const { loaded, loadError, all, users, search, setSearch, rights, actions, dialogs: d } = useUsersList();
  const { open, catalogue: c } = d;
  const question = { cancel: t('cancel'), loading: d.busy, onYes: () => void d.confirm(), onClose: d.close };

  return (
    <Stack gap="sm" data-testid="users-page">
      {/* the search box on its own line, full width; the buttons below it wrap on a phone */}
      <SearchInput label={t('search')} value={search} onSearch={setSearch} testId="users-search" />
      {rights.create && (
        <Group gap={6} justify="flex-end">
          <Button
            size="xs"
            variant="default"
            leftSection={<IconFileSpreadsheet size={14} />}
            onClick={() => d.setImporting(true)}
            disabled={rights.limitReached}
            data-testid="users-import"
          >
            {t('import.button')}
          </Button>
          <Button
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={actions.add}
            data-testid="users-add"
          >
            {t('add')}
          </Button>
        </Group>
      )}
      {loadError && <Alert color="red">{t('loadError')}</Alert>}
      {loaded && users.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="users-empty">
          {t('empty')}
        </Text>
      )}
      {users.length > 0 && (
        <Stack gap={6} role="list" aria-label={t('shell:routes.users')} data-testid="users-table">
          {users.map((u) => (
            <UserCard key={u.id} user={u} rights={rights} actions={actions} />
          ))}
        </Stack>
      )}

      {/* the confirmations (SPEC §5, §6): log in as a user, delete a user, suspend or reactivate a customer */}
      {open?.kind === 'loginAs' && (
        <ConfirmModal
          {...question}
          title={t('loginAs.title', { name: open.user.name || open.user.email })}
          question={t('loginAs.question', { name: open.user.name || open.user.email })}
          testId="user-login-as-confirm"
          yes={t('loginAs.confirm')}
          yesTestId="user-login-as-yes"
        />
      )}
      {c.deleting && (
        <ConfirmModal
          cancel={t('cancel')}
          title={t('deleteTitle')}
          question={t('deleteQuestion', { name: c.deleting.name })}
          testId="user-delete-confirm"
          yes={t('delete')}
          yesTestId="user-delete-yes"
          color="red"
          loading={c.removing}
          onYes={() => void c.confirmDelete()}
          onClose={() => c.setDeleting(null)}
        />
      )}
      {(open?.kind === 'suspend' || open?.kind === 'reactivate') && (
        <ConfirmModal
          {...question}
          title={t(`billing.${open.kind}.title`)}
          question={t(`billing.${open.kind}.question`, { name: open.user.name })}
          testId="user-suspension-confirm"
          yes={t(`billing.${open.kind}.button`)}
          yesTestId="user-suspension-yes"
          color={open.kind === 'suspend' ? 'orange' : 'green'}
        />
      )}
      {d.open?.kind === 'message' && <MessageDialog recipient={d.open.user} onClose={d.close} />}
      {d.open?.kind === 'link' && <LinkDevicesModal target={d.open.user} onClose={d.close} />}
      {d.importing && (
        <ImportUsersModal
          existingEmails={all.map((u) => u.email)}
          limit={rights.admin ? -1 : (rights.actor?.userLimit ?? 0)}
          used={rights.managedCount}
          onClose={() => d.setImporting(false)}
        />
      )}
    </Stack>
  );
}
