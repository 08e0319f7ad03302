// The state and actions of the users page (SPEC §5, §6): what the caller may do to each user (edit, delete, log in
// as, suspend with billing on), the dialogs it has open and what their confirmations send to the server. The list
// and delete with its confirmation are the catalogue scaffold's (useCatalogue); the rest is the page's own.
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import {
  impersonationDenial,
  isAdmin,
  isBillingEnabled,
  isManager,
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

/** The dialog open about one user (one at a time): a message, the device links, or a question to confirm. */
type UserDialog = { kind: 'message' | 'link' | 'loginAs' | 'suspend' | 'reactivate'; user: User };

/** Case-insensitive match of the search text on name, e-mail and phone. */
export function filterUsers<T extends Pick<User, 'name' | 'email' | 'phone'>>(
  users: readonly T[],
  text: string,
): T[] {
  const q = text.trim().toLowerCase();
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
    billingOn: admin && isBillingEnabled(server, ns),
    /** The access table's users.create / edit / delete, as the server's gate asks them. */
    ...can,
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
  const [open, setOpen] = useState<UserDialog | null>(null);
  const [importing, setImporting] = useState(false);
  const [busy, setBusy] = useState(false);
  const all = c.items;
  const rights = useUserRights(all, c.rights);
  const users = useMemo(() => filterUsers(visibleUsers(all), search), [all, search]);
  const fail = (message: string) => notifications.show({ color: 'red', message });
  const close = () => setOpen(null);

  /** The "yes" of the open question: log in as the user, or suspend / reactivate him. */
  const confirm = async () => {
    if (!open) return;
    const { kind, user: target } = open;
    setBusy(true);
    if (kind === 'loginAs') {
      try {
        await api.get(`/session/${target.id}`);
        window.location.assign('/home'); // devices, positions and the socket start again as that user
      } catch (err) {
        setBusy(false);
        fail(serverDetail(err) || t('loginAs.error'));
      }
      return;
    }
    try {
      await ext.request('POST', `/users/${target.id}/${kind}`);
      await qc.invalidateQueries({ queryKey: resourceKeys.all('users') });
      notifications.show({ color: 'green', message: t(`billing.${kind}.done`, { name: target.name }) });
    } catch (e) {
      console.warn(`user not ${kind}ed`, e);
      fail(`${t(`billing.${kind}.error`)}${serverDetail(e)}`);
    } finally {
      setBusy(false);
      close();
    }
  };
  const opens = (kind: UserDialog['kind']) => (user: User) => setOpen({ kind, user });
  /** Does `go` unless the domain refuses it (a message key), then says why instead. */
  const unless = (denial: string | false | null, go: () => void) => (denial ? fail(t(denial)) : go());

  const actions = {
    add: () =>
      unless(rights.limitReached && 'validation.userLimitReached', () =>
        openDialog('userEdit', { userId: 0 }),
      ),
    edit: (u: User) => unless(rights.editDenial(u), () => openDialog('userEdit', { userId: u.id })),
    askDelete: (u: User) => unless(rights.deleteDenial(u), () => c.setDeleting(u)),
    message: opens('message'),
    link: opens('link'),
    loginAs: opens('loginAs'),
    suspend: opens('suspend'),
    reactivate: opens('reactivate'),
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
    dialogs: { open, close, busy, confirm, importing, setImporting, catalogue: c },
  };
}

export type UserActions = ReturnType<typeof useUsersList>['actions'];
