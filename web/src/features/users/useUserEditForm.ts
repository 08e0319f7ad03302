// The state of the user form (dialog `userEdit`): its values and errors, what the caller may see and change
// (permissions, limits, reseller, billing; SPEC §5 refusals), and the save (parseUserForm from @rastro/domain, then
// PUT or POST /api/users; one's own account also updates the session and the language).
import { useQueryClient } from '@tanstack/react-query';
import {
  INHERITED_RESTRICTIONS,
  SUPPORTED_LOCALES,
  applyUserBilling,
  attrBool,
  canCreateResellers,
  emptyUserForm,
  inheritedUserDefaults,
  isAdmin,
  isBillingEnabled,
  isManager,
  isReseller,
  nsKey,
  parseUserBillingForm,
  parseUserForm,
  readUserBilling,
  superiorAdminId,
  userBillingToForm,
  userEditDenial,
  userToForm,
  type User,
  type UserBilling,
  type UserBillingForm,
  type UserFormValues,
} from '@rastro/domain';
import { useState } from 'react';
import { serverDetail } from '../../api/http.ts';
import { resourceClient, resourceKeys, useResourceList } from '../../api/resources.ts';
import { useReadonly } from '../../components/useCan.ts';
import type { Parsed } from '../../components/useCatalogue.ts';
import { useParsedForm } from '../../components/useParsedForm.ts';
import { choiceBinder, fieldBinder, flagBinder } from '../../components/boundField.ts';
import { setLocale, type Locale } from '../../i18n/index.ts';
import { useSession } from '../../stores/session.ts';

type UserBody = Parameters<typeof resourceClient.save<'users'>>[1];

const PREFERENCES_TAB_FIELDS = ['language', 'map', 'latitude', 'longitude', 'zoom', 'coordinateFormat'];
const PERMISSIONS_TAB_FIELDS = [
  'deviceLimit',
  'userLimit',
  'expirationTime',
  'advancedPerms',
  'administrator',
  'reseller',
  'resellerDomain',
];

/** The tab that holds a form field (the first refused field's tab opens). */
const tabOf = (key: string) =>
  key.startsWith('address.')
    ? 'address'
    : PREFERENCES_TAB_FIELDS.includes(key)
      ? 'preferences'
      : PERMISSIONS_TAB_FIELDS.includes(key)
        ? 'permissions'
        : 'account';

/** What the caller may see and change in the form of `stored` (null: a new user). */
function useUserEditRights(stored: User | null) {
  const actor = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const ns = useSession((s) => s.ns);
  const own = !!stored && stored.id === actor?.id;
  const admin = isAdmin(actor);
  // limits: administrators, and resellers within their own; reseller settings: also resellers that create them
  const reseller = isReseller(actor, ns);
  // Administrators: the user list tells who the superior administrator (the first one) is.
  const everyone = useResourceList('users', undefined, { enabled: admin && !!stored && !own });
  const superiorId = superiorAdminId(everyone.data ?? []);
  const denial = stored && actor ? userEditDenial(actor, stored, { superiorId }) : null;
  const readonlyActor = useReadonly();
  return {
    own,
    admin,
    denial,
    readonlyActor,
    canSave: !denial && !readonlyActor,
    showPermissions: admin || (isManager(actor) && !own),
    advancedEnabled: attrBool(server?.attributes?.[nsKey(ns, 'enableAdvancedPerms')]),
    showLimits: admin || reseller,
    showReseller: admin || canCreateResellers(actor, ns),
    showBilling: admin && isBillingEnabled(server, ns),
    /** A restriction the manager has itself stays on its sub-user (the server refuses clearing it). */
    locked: (k: (typeof INHERITED_RESTRICTIONS)[number]) =>
      !admin && !!actor?.[k] && (!stored || !!stored[k]),
  };
}

export function useUserEditForm(stored: User | null, onClose: () => void) {
  const qc = useQueryClient();
  const actor = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  const rights = useUserEditRights(stored);
  // A manager's new user starts with the manager's own restrictions and permission string (it cannot give more).
  const [initial] = useState<UserFormValues>(() =>
    stored
      ? userToForm(stored, ns)
      : { ...emptyUserForm(isAdmin(actor)), ...(isAdmin(actor) ? {} : inheritedUserDefaults(actor, ns)) },
  );
  const [billing, setBilling] = useState<UserBillingForm>(() =>
    userBillingToForm(readUserBilling(stored?.attributes, ns)),
  );
  const [billingErrors, setBillingErrors] = useState<Partial<Record<keyof UserBilling, string>>>({});
  const [tab, setTab] = useState<string | null>('account');

  // The user's fields and the billing tab are checked together; the first refused field's tab opens.
  const parse = (values: UserFormValues): Parsed<UserBody> => {
    const r = parseUserForm(values, {
      mode: stored ? 'edit' : 'create',
      base: stored,
      ns,
      actor: { user: actor, server, isPlus, ns },
      permissions: rights.showPermissions,
      actorExpiration: actor?.expirationTime ?? null,
    });
    const b = rights.showBilling ? parseUserBillingForm(billing) : null;
    setBillingErrors(b && !b.ok ? b.errors : {});
    if (!r.ok) {
      const first = Object.keys(r.errors)[0];
      if (first) setTab(tabOf(first));
      return r;
    }
    if (b && !b.ok) {
      setTab('billing');
      return { ok: false, errors: {} };
    }
    if (b?.ok) r.user.attributes = applyUserBilling(r.user.attributes, b.billing, ns);
    return { ok: true, value: r.user };
  };

  const f = useParsedForm<UserFormValues, UserBody>({
    ns: 'users',
    initial,
    parse,
    save: async (user) => {
      const saved = await resourceClient.save('users', user);
      await qc.invalidateQueries({ queryKey: resourceKeys.all('users') });
      if (rights.own) {
        useSession.getState().setUser(saved);
        const lang = saved.attributes?.[nsKey(ns, 'lang')];
        if (typeof lang === 'string' && (SUPPORTED_LOCALES as readonly string[]).includes(lang))
          await setLocale(lang as Locale);
      }
    },
    failure: (e, t) => `${t('saveError')}${serverDetail(e)}`,
    what: 'user',
    onClose,
  });
  const { form: values, setForm: setValues, err } = f;
  const set = <K extends keyof UserFormValues>(k: K, v: UserFormValues[K]) =>
    setValues((s) => ({ ...s, [k]: v }));
  const setAddress = (k: keyof UserFormValues['address'], v: string) =>
    setValues((s) => ({ ...s, address: { ...s.address, [k]: v } }));

  return {
    ns,
    rights,
    values,
    set,
    setAddress,
    err,
    /** The props of a text field: label `fields.<key>`, value, change, error, test id `user-<key>`. */
    field: fieldBinder({ t: f.t, values, set, err }, 'user'),
    choice: choiceBinder({ t: f.t, values, set, err }, 'user'),
    /** The props of a switch: label `fields.<key>`, checked, change, test id `user-<key>`. */
    check: flagBinder({ t: f.t, values, set }, 'user'),
    invalid: Object.keys(f.errors).length + Object.keys(billingErrors).length > 0,
    billing,
    setBilling,
    billingErrors,
    saving: f.busy,
    tab,
    setTab,
    submit: f.submit,
  };
}

/** The user form's state and bindings, as its tabs receive them. */
export type UserForm = ReturnType<typeof useUserEditForm>;
