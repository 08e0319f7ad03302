// /users (SPEC §2, §6): the users the caller manages (administrators: everyone; shared-link guests hidden), searchable
// by name and e-mail, with administrator / manager / read-only / disabled badges and the expiry. Create and edit
// open the `userEdit` dialog; delete asks first. SPEC §5: no delete button on oneself, no edit / delete /
// suspend on a superior administrator (the first administrator, or one managing the caller); "link
// devices" ticks the caller's devices for a user; Excel import creates users from a sheet. With billing on
// ({ns}.enableBilling), administrators see each customer's account state (suspended / trust until) and suspend or
// reactivate him (POST /{ns}/users/{id}/suspend | reactivate, after a confirmation).
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconDeviceMobile,
  IconMessage,
  IconEdit,
  IconFileSpreadsheet,
  IconLock,
  IconLockOpen,
  IconLogin2,
  IconPlus,
  IconSearch,
  IconTrash,
} from '@tabler/icons-react';
import {
  attrBool,
  impersonationDenial,
  isAdmin,
  isManager,
  isReadonly,
  nsKey,
  superiorAdminId,
  userAccountState,
  userDeleteDenial,
  userEditDenial,
  userLimitReached,
  visibleUsers,
  type User,
} from '@rastro/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, ext, serverDetail } from '../../api/http.ts';
import { resourceKeys, useDeleteResource, useResourceList } from '../../api/resources.ts';
import { openDialog } from '../../shell/dialogs.ts';
import { intlLocale } from '../../i18n/index.ts';
import { useSession } from '../../stores/session.ts';
import { useCan } from '../../components/useCan.ts';
import { useQueryClient } from '@tanstack/react-query';
import { ImportUsersModal } from './ImportUsersModal.tsx';
import { AccountStateBadge } from './UserBillingTab.tsx';
import { LinkDevicesModal } from './LinkDevicesModal.tsx';
import { MessageDialog } from './MessageDialog.tsx';

/** Case-insensitive match of the search text on name, e-mail and phone. */
export function filterUsers<T extends Pick<User, 'name' | 'email' | 'phone'>>(
  users: readonly T[],
  text: string,
): T[] {
  const q = text.trim().toLowerCase();
  if (!q) return [...users];
  return users.filter((u) => [u.name, u.email, u.phone ?? ''].some((v) => v.toLowerCase().includes(q)));
}

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
  const actor = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const list = useResourceList('users');
  const remove = useDeleteResource('users');
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<User | null>(null);
  const [linking, setLinking] = useState<User | null>(null);
  const [messaging, setMessaging] = useState<User | null>(null);
  const [importing, setImporting] = useState(false);
  const [loginAs, setLoginAs] = useState<User | null>(null);
  const [switching, setSwitching] = useState(false);
  const [suspension, setSuspension] = useState<{ user: User; action: 'suspend' | 'reactivate' } | null>(null);
  const [suspending, setSuspending] = useState(false);
  const qc = useQueryClient();
  const ns = useSession((s) => s.ns);
  const admin = isAdmin(actor);
  const billingOn = admin && attrBool(server?.attributes?.[nsKey(ns, 'enableBilling')]);
  const editable = !isReadonly(actor, server) && (admin || isManager(actor));

  const users = useMemo(() => filterUsers(visibleUsers(list.data ?? []), search), [list.data, search]);
  // SPEC §5/§6: nobody deletes itself; the superior administrator (the first one) and an administrator managing
  // the actor are not edited, suspended or deleted by another administrator (the server refuses it too).
  const superior = useMemo(() => ({ superiorId: superiorAdminId(list.data ?? []) }), [list.data]);
  const editDenial = (u: User) => (actor ? userEditDenial(actor, u, superior) : null);
  const deleteDenial = (u: User) => (actor ? userDeleteDenial(actor, u, superior) : null);
  // SPEC §6: an administrator logs in as another user (not itself, a superior, a disabled or expired account).
  const canLoginAs = (u: User) => !!actor && isAdmin(actor) && !impersonationDenial(actor, u, superior);
  const confirmLoginAs = async () => {
    if (!loginAs) return;
    setSwitching(true);
    try {
      await api.get(`/session/${loginAs.id}`);
      window.location.assign('/home'); // devices, positions and the socket start again as that user
    } catch (err) {
      setSwitching(false);
      const detail = serverDetail(err);
      notifications.show({ color: 'red', message: detail || t('loginAs.error') });
    }
  };
  const managedCount = visibleUsers(list.data ?? []).filter((u) => u.id !== actor?.id).length;
  const limitReached = userLimitReached(actor?.userLimit ?? 0, managedCount, admin);
  const dateFmt = useMemo(() => new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'short' }), []);

  const add = () => {
    if (limitReached) {
      notifications.show({ color: 'red', message: t('validation.userLimitReached', { ns: 'common' }) });
      return;
    }
    openDialog('userEdit', { userId: 0 });
  };

  const edit = (u: User) => {
    const denial = editDenial(u);
    if (denial) notifications.show({ color: 'red', message: t(denial) });
    else openDialog('userEdit', { userId: u.id });
  };

  const askDelete = (u: User) => {
    const denial = deleteDenial(u);
    if (denial) notifications.show({ color: 'red', message: t(denial) });
    else setDeleting(u);
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', message: t('deleted') });
    } catch (e) {
      console.warn('user not deleted', e);
      const detail = serverDetail(e);
      notifications.show({ color: 'red', message: `${t('deleteError')}${detail}` });
    }
    setDeleting(null);
  };

  const confirmSuspension = async () => {
    if (!suspension) return;
    const { user: target, action } = suspension;
    setSuspending(true);
    try {
      await ext.request('POST', `/users/${target.id}/${action}`);
      await qc.invalidateQueries({ queryKey: resourceKeys.all('users') });
      notifications.show({ color: 'green', message: t(`billing.${action}.done`, { name: target.name }) });
    } catch (e) {
      console.warn(`user not ${action}ed`, e);
      const detail = serverDetail(e);
      notifications.show({ color: 'red', message: `${t(`billing.${action}.error`)}${detail}` });
    } finally {
      setSuspending(false);
      setSuspension(null);
    }
  };

  const now = Date.now();

  return (
    <Stack gap="sm" data-testid="users-page">
      <Group justify="space-between" wrap="nowrap">
        <TextInput
          size="xs"
          flex={1}
          leftSection={<IconSearch size={14} />}
          placeholder={t('search')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          data-testid="users-search"
        />
        {editable && (
          <Group gap={6} wrap="nowrap">
            <Button
              size="xs"
              variant="default"
              leftSection={<IconFileSpreadsheet size={14} />}
              onClick={() => setImporting(true)}
              disabled={limitReached}
              data-testid="users-import"
            >
              {t('import.button')}
            </Button>
            <Button size="xs" leftSection={<IconPlus size={14} />} onClick={add} data-testid="users-add">
              {t('add')}
            </Button>
          </Group>
        )}
      </Group>
      {list.isError && <Alert color="red">{t('loadError')}</Alert>}
      {list.data && users.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="users-empty">
          {t('empty')}
        </Text>
      )}
      {users.length > 0 && (
        <Table striped fz="sm" data-testid="users-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('fields.name')}</Table.Th>
              <Table.Th>{t('fields.email')}</Table.Th>
              <Table.Th>{t('fields.expirationTime')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {users.map((u) => {
              const expired = !!u.expirationTime && Date.parse(u.expirationTime) < now;
              return (
                <Table.Tr key={u.id} data-testid="user-row" data-user-id={u.id} data-user-email={u.email}>
                  <Table.Td>
                    <Stack gap={2}>
                      <Text size="sm">{u.name}</Text>
                      <Group gap={4}>
                        {u.administrator && (
                          <Badge size="xs" color="red" data-testid="badge-admin">
                            {t('badges.admin')}
                          </Badge>
                        )}
                        {!u.administrator && u.userLimit !== 0 && (
                          <Badge size="xs" color="violet" data-testid="badge-manager">
                            {t('badges.manager')}
                          </Badge>
                        )}
                        {u.readonly && (
                          <Badge size="xs" color="gray" data-testid="badge-readonly">
                            {t('badges.readonly')}
                          </Badge>
                        )}
                        {u.disabled && (
                          <Badge size="xs" color="dark" data-testid="badge-disabled">
                            {t('badges.disabled')}
                          </Badge>
                        )}
                        {billingOn && userAccountState(u.attributes, ns).state !== 'active' && (
                          <AccountStateBadge attributes={u.attributes} ns={ns} />
                        )}
                      </Group>
                    </Stack>
                  </Table.Td>
                  <Table.Td>{u.email}</Table.Td>
                  <Table.Td>
                    {u.expirationTime ? (
                      <Text size="sm" c={expired ? 'red' : undefined} data-testid="user-expiry">
                        {dateFmt.format(new Date(u.expirationTime))}
                        {expired ? ` (${t('badges.expired')})` : ''}
                      </Text>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      {(admin || isManager(actor)) && u.id !== actor?.id && (
                        <Tooltip label={t('message.button')}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('message.button')}
                            onClick={() => setMessaging(u)}
                            data-testid="user-message"
                          >
                            <IconMessage size={16} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                      {editable && (
                        <Tooltip label={t('link.button')}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('link.button')}
                            onClick={() => setLinking(u)}
                            data-testid="user-link"
                          >
                            <IconDeviceMobile size={16} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                      {billingOn &&
                        !u.administrator &&
                        editable &&
                        !editDenial(u) &&
                        (userAccountState(u.attributes, ns).state === 'active' ? (
                          <Tooltip label={t('billing.suspend.button')}>
                            <ActionIcon
                              variant="subtle"
                              color="orange"
                              aria-label={t('billing.suspend.button')}
                              onClick={() => setSuspension({ user: u, action: 'suspend' })}
                              data-testid="user-suspend"
                            >
                              <IconLock size={16} />
                            </ActionIcon>
                          </Tooltip>
                        ) : (
                          <Tooltip label={t('billing.reactivate.button')}>
                            <ActionIcon
                              variant="subtle"
                              color="green"
                              aria-label={t('billing.reactivate.button')}
                              onClick={() => setSuspension({ user: u, action: 'reactivate' })}
                              data-testid="user-reactivate"
                            >
                              <IconLockOpen size={16} />
                            </ActionIcon>
                          </Tooltip>
                        ))}
                      {canLoginAs(u) && (
                        <Tooltip label={t('loginAs.button')}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('loginAs.button')}
                            onClick={() => setLoginAs(u)}
                            data-testid="user-login-as"
                          >
                            <IconLogin2 size={16} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                      {!editDenial(u) && (
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('edit')}
                          onClick={() => edit(u)}
                          data-testid="user-edit-open"
                        >
                          <IconEdit size={16} />
                        </ActionIcon>
                      )}
                      {editable && !deleteDenial(u) && (
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('delete')}
                          onClick={() => askDelete(u)}
                          data-testid="user-delete"
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}

      {loginAs && (
        <Modal
          opened
          onClose={() => setLoginAs(null)}
          title={t('loginAs.title', { name: loginAs.name || loginAs.email })}
          data-testid="user-login-as-confirm"
        >
          <Stack>
            <Text size="sm">{t('loginAs.question', { name: loginAs.name || loginAs.email })}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setLoginAs(null)}>
                {t('cancel')}
              </Button>
              <Button
                onClick={() => void confirmLoginAs()}
                loading={switching}
                data-testid="user-login-as-yes"
              >
                {t('loginAs.confirm')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
      {deleting && (
        <Modal
          opened
          onClose={() => setDeleting(null)}
          title={t('deleteTitle')}
          data-testid="user-delete-confirm"
        >
          <Stack>
            <Text size="sm">{t('deleteQuestion', { name: deleting.name })}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>
                {t('cancel')}
              </Button>
              <Button
                color="red"
                onClick={() => void confirmDelete()}
                loading={remove.isPending}
                data-testid="user-delete-yes"
              >
                {t('delete')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
      {suspension && (
        <Modal
          opened
          onClose={() => setSuspension(null)}
          title={t(`billing.${suspension.action}.title`)}
          data-testid="user-suspension-confirm"
        >
          <Stack>
            <Text size="sm">
              {t(`billing.${suspension.action}.question`, { name: suspension.user.name })}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setSuspension(null)}>
                {t('cancel')}
              </Button>
              <Button
                color={suspension.action === 'suspend' ? 'orange' : 'green'}
                onClick={() => void confirmSuspension()}
                loading={suspending}
                data-testid="user-suspension-yes"
              >
                {t(`billing.${suspension.action}.button`)}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
      {messaging && (
        <MessageDialog recipient={messaging} senderIsAdmin={admin} onClose={() => setMessaging(null)} />
      )}
      {linking && (
        <LinkDevicesModal target={linking} callerIsAdmin={admin} onClose={() => setLinking(null)} />
      )}
      {importing && (
        <ImportUsersModal
          existingEmails={(list.data ?? []).map((u) => u.email)}
          limit={admin ? -1 : (actor?.userLimit ?? 0)}
          used={managedCount}
          onClose={() => setImporting(false)}
        />
      )}
    </Stack>
  );
}
