// The state and actions of the users page (SPEC §5, §6): what the caller may do to each user (edit, delete, log in
// as, suspend with billing on), the dialogs it has open and what their confirmations send to the server. The list
// and delete with its confirmation are the catalogue scaffold's (useCatalogue); the rest is the page's own.
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import {
  attrBool,
  impersonationDenial,
  isAdmin,
  isManager,
  nsKey,
  superiorAdminId,
  userDeleteDenial,
  userEditDenial,
  userLimitReached,
  visibleUsers,
  type User,
} from '@rastro/domain';
import { useMemo, useState } from 'react';
import { api, ext, serverDetail } from '../../api/http.ts';
import { resourceKeys } from '../../api/resources.ts';
import { useCan } from '../../components/useCan.ts';
import { useCatalogue } from '../../components/useCatalogue.ts';
import { openDialog } from '../../shell/dialogs.ts';
import { useSession } from '../../stores/session.ts';

type Suspension = { user: User; action: 'suspend' | 'reactivate' };

/** Case-insensitive match of the search text on name, e-mail and phone. */
export function filterUsers<T extends Pick<User, 'name' | 'email' | 'phone'>>(
  users: readonly T[],
  text: string,
): T[] {
  const q = text.trim().toLowerCase();
  if (!q) return [...users];
  return users.filter((u) => [u.name, u.email, u.phone ?? ''].some((v) => v.toLowerCase().includes(q)));
}

/** What the caller may do on the users page: its role, billing, and each user's refusals. */
function useUserRights(all: readonly User[], can: { create: boolean; edit: boolean; delete: boolean }) {
  const actor = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const ns = useSession((s) => s.ns);
  const admin = isAdmin(actor);
  const canLoginAs = useCan('users.loginAs');
  // SPEC §5/§6: nobody deletes itself; the superior administrator (the first one) and an administrator managing
  // the actor are not edited, suspended or deleted by another administrator (the server refuses it too).
  const superior = useMemo(() => ({ superiorId: superiorAdminId(all) }), [all]);
  const managedCount = visibleUsers(all).filter((u) => u.id !== actor?.id).length;
  return {
    actor,
    ns,
    admin,
    managedCount,
    manages: admin || isManager(actor),
    billingOn: admin && attrBool(server?.attributes?.[nsKey(ns, 'enableBilling')]),
    /** The access table's users.create / edit / delete, as the server's gate asks them. */
    creatable: can.create,
    editable: can.edit,
    deletable: can.delete,
    limitReached: userLimitReached(actor?.userLimit ?? 0, managedCount, admin),
    editDenial: (u: User) => (actor ? userEditDenial(actor, u, superior) : null),
    deleteDenial: (u: User) => (actor ? userDeleteDenial(actor, u, superior) : null),
    // SPEC §6: an administrator logs in as another user (not itself, a superior, a disabled or expired account).
    canLoginAs: (u: User) => !!actor && canLoginAs && !impersonationDenial(actor, u, superior),
  };
}

export type UserRights = ReturnType<typeof useUserRights>;

/** The page's list, search, rights, open dialogs and the actions behind their buttons. */
export function useUsersList() {
  // users.create / edit / delete of the access table, as the server's gate asks them
  const can = { create: useCan('users.create'), edit: useCan('users.edit'), delete: useCan('users.delete') };
  const c = useCatalogue<'users', { id: number }>({
    resource: 'users',
    ns: 'users',
    area: 'users',
    rights: can,
  });
  const { t } = c;
  const qc = useQueryClient();
  const [search, setSearch] = useState('');
  const [linking, setLinking] = useState<User | null>(null);
  const [messaging, setMessaging] = useState<User | null>(null);
  const [importing, setImporting] = useState(false);
  const [loginAs, setLoginAs] = useState<User | null>(null);
  const [switching, setSwitching] = useState(false);
  const [suspension, setSuspension] = useState<Suspension | null>(null);
  const [suspending, setSuspending] = useState(false);
  const all = c.items;
  const rights = useUserRights(all, c.rights);
  const users = useMemo(() => filterUsers(visibleUsers(all), search), [all, search]);
  const fail = (message: string) => notifications.show({ color: 'red', message });

  const confirmLoginAs = async () => {
    if (!loginAs) return;
    setSwitching(true);
    try {
      await api.get(`/session/${loginAs.id}`);
      window.location.assign('/home'); // devices, positions and the socket start again as that user
    } catch (err) {
      setSwitching(false);
      fail(serverDetail(err) || t('loginAs.error'));
    }
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
      fail(`${t(`billing.${action}.error`)}${serverDetail(e)}`);
    } finally {
      setSuspending(false);
      setSuspension(null);
    }
  };

  const actions = {
    add() {
      if (rights.limitReached) fail(t('validation.userLimitReached', { ns: 'common' }));
      else openDialog('userEdit', { userId: 0 });
    },
    edit(u: User) {
      const denial = rights.editDenial(u);
      if (denial) fail(t(denial));
      else openDialog('userEdit', { userId: u.id });
    },
    askDelete(u: User) {
      const denial = rights.deleteDenial(u);
      if (denial) fail(t(denial));
      else c.setDeleting(u);
    },
    message: setMessaging,
    link: setLinking,
    loginAs: setLoginAs,
    suspend: (user: User) => setSuspension({ user, action: 'suspend' }),
    reactivate: (user: User) => setSuspension({ user, action: 'reactivate' }),
  };

  return {
    loaded: c.loaded,
    loadError: c.loadError,
    all,
    users,
    search,
    setSearch,
    rights,
    actions,
    dialogs: {
      deleting: c.deleting,
      setDeleting: c.setDeleting,
      deletePending: c.removing,
      confirmDelete: c.confirmDelete,
      linking,
      setLinking,
      messaging,
      setMessaging,
      importing,
      setImporting,
      loginAs,
      setLoginAs,
      switching,
      confirmLoginAs,
      suspension,
      setSuspension,
      suspending,
      confirmSuspension,
    },
  };
}

export type UsersDialogs = ReturnType<typeof useUsersList>['dialogs'];
export type UserActions = ReturnType<typeof useUsersList>['actions'];
