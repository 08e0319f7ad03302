// Dialog `userEdit` (props { userId? }; none or 0 = a new user). Tabs: account, preferences, permissions (only for
// administrators, and for managers editing someone else) and address/contacts. Validation and the role rules come
// from @rastro/domain parseUserForm. Save = PUT /api/users/{id} (full object) or POST /api/users; saving one's own
// account updates the session user and applies the chosen language. "My Account" opens it with the own id.
// Administrators of a server with {ns}.enableBilling also get a Billing tab (UserBillingTab), saved in the same
// PUT/POST with the user's attributes.
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  NumberInput,
  PasswordInput,
  ScrollArea,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  INHERITED_RESTRICTIONS,
  PERMISSION_ACTIONS,
  PERMISSION_AREAS,
  SUPPORTED_LOCALES,
  USER_ADDRESS_FIELDS,
  USER_EDIT_LOAD_RETRIES,
  USER_EDIT_LOAD_TIMEOUT_MS,
  applyUserBilling,
  attrBool,
  canCreateResellers,
  decodePermissionMatrix,
  emptyUserForm,
  encodePermissionMatrix,
  inheritedUserDefaults,
  isAdmin,
  isManager,
  isReadonly,
  isReseller,
  nsKey,
  parseUserBillingForm,
  parseUserForm,
  permissionIndex,
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
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api, serverDetail } from '../../api/http.ts';
import { resourceClient, resourceKeys, useResourceList } from '../../api/resources.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { setLocale, type Locale } from '../../i18n/index.ts';
import { useSession } from '../../stores/session.ts';
import { ResellerFields } from './ResellerFields.tsx';
import { UserPreferencesFields } from './UserPreferencesFields.tsx';
import { UserBillingTab } from './UserBillingTab.tsx';
import { DateField } from '../../components/DateField.tsx';

const propsSchema = z.object({ userId: z.number().int().min(0).optional() });

/** GET /api/users/{id} with the SPEC §8 retries: up to 3 attempts, 3 s each. */
async function loadUser(id: number): Promise<User> {
  const res = await api.request<User>('GET', `/users/${id}`, {
    signal: AbortSignal.timeout(USER_EDIT_LOAD_TIMEOUT_MS),
  });
  return res.data;
}

export function UserEditDialog({ props, onClose }: DialogComponentProps) {
  const parsed = propsSchema.safeParse(props);
  const userId = parsed.success ? (parsed.data.userId ?? 0) : 0;
  const { t } = useTranslation('users');
  const loaded = useQuery({
    queryKey: resourceKeys.item('users', userId),
    queryFn: () => loadUser(userId),
    enabled: userId > 0,
    retry: USER_EDIT_LOAD_RETRIES - 1,
    retryDelay: 500,
    gcTime: 0,
  });

  const title = userId > 0 ? t('editTitle') : t('addTitle');
  if (userId > 0 && !loaded.data) {
    return (
      <Modal opened onClose={onClose} title={title} data-testid="user-edit">
        {loaded.isError ? (
          <Alert color="red">{t('loadError')}</Alert>
        ) : (
          <Group justify="center" p="md">
            <Loader size="sm" />
          </Group>
        )}
      </Modal>
    );
  }
  return <UserEditForm key={userId} stored={loaded.data ?? null} onClose={onClose} title={title} />;
}

function UserEditForm({ stored, onClose, title }: { stored: User | null; onClose(): void; title: string }) {
  const { t } = useTranslation('users');
  const qc = useQueryClient();
  const actor = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  const actorCtx = { user: actor, server, isPlus, ns };
  // A manager's new user starts with the manager's own restrictions and permission string (it cannot give more).
  const [values, setValues] = useState<UserFormValues>(() =>
    stored
      ? userToForm(stored, ns)
      : { ...emptyUserForm(isAdmin(actor)), ...(isAdmin(actor) ? {} : inheritedUserDefaults(actor, ns)) },
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [billing, setBilling] = useState<UserBillingForm>(() =>
    userBillingToForm(readUserBilling(stored?.attributes, ns)),
  );
  const [billingErrors, setBillingErrors] = useState<Partial<Record<keyof UserBilling, string>>>({});
  const [saving, setSaving] = useState(false);
  const [tab, setTab] = useState<string | null>('account');

  const own = !!stored && stored.id === actor?.id;
  const admin = isAdmin(actor);
  const showPermissions = admin || (isManager(actor) && !own);
  const advancedEnabled = attrBool(server?.attributes?.[nsKey(ns, 'enableAdvancedPerms')]);
  // limits: administrators, and resellers within their own; reseller settings: also resellers that create them
  const reseller = isReseller(actor, ns);
  const showLimits = admin || reseller;
  const showReseller = admin || canCreateResellers(actor, ns);
  const showBilling = admin && attrBool(server?.attributes?.[nsKey(ns, 'enableBilling')]);
  // Administrators: the user list tells who the superior administrator (the first one) is.
  const everyone = useResourceList('users', undefined, { enabled: admin && !!stored && !own });
  const superiorId = superiorAdminId(everyone.data ?? []);
  const denial = stored && actor ? userEditDenial(actor, stored, { superiorId }) : null;
  /** A restriction the manager has itself stays on its sub-user (the server refuses clearing it). */
  const locked = (k: (typeof INHERITED_RESTRICTIONS)[number]) =>
    !admin && !!actor?.[k] && (!stored || !!stored[k]);
  const readonlyActor = isReadonly(actor, server);
  const canSave = !denial && !readonlyActor;

  const set = <K extends keyof UserFormValues>(k: K, v: UserFormValues[K]) =>
    setValues((s) => ({ ...s, [k]: v }));
  const err = (k: string) => (errors[k] ? t(errors[k]) : undefined);
  const text = (k: 'name' | 'email' | 'phone' | 'map' | 'latitude' | 'longitude' | 'zoom') => ({
    value: values[k],
    error: err(k),
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => set(k, e.currentTarget.value),
  });

  const tabOf = (key: string) =>
    key.startsWith('address.')
      ? 'address'
      : ['language', 'map', 'latitude', 'longitude', 'zoom', 'coordinateFormat'].includes(key)
        ? 'preferences'
        : [
              'deviceLimit',
              'userLimit',
              'expirationTime',
              'advancedPerms',
              'administrator',
              'reseller',
              'resellerDomain',
            ].includes(key)
          ? 'permissions'
          : 'account';

  const submit = async () => {
    const r = parseUserForm(values, {
      mode: stored ? 'edit' : 'create',
      base: stored,
      ns,
      actor: actorCtx,
      permissions: showPermissions,
      actorExpiration: actor?.expirationTime ?? null,
    });
    const b = showBilling ? parseUserBillingForm(billing) : null;
    setBillingErrors(b && !b.ok ? b.errors : {});
    if (!r.ok) {
      setErrors(r.errors);
      const first = Object.keys(r.errors)[0];
      if (first) setTab(tabOf(first));
      return;
    }
    if (b && !b.ok) {
      setErrors({});
      setTab('billing');
      return;
    }
    if (b?.ok) r.user.attributes = applyUserBilling(r.user.attributes, b.billing, ns);
    setErrors({});
    setSaving(true);
    try {
      const saved = await resourceClient.save('users', r.user);
      await qc.invalidateQueries({ queryKey: resourceKeys.all('users') });
      if (own) {
        useSession.getState().setUser(saved);
        const lang = saved.attributes?.[nsKey(ns, 'lang')];
        if (typeof lang === 'string' && (SUPPORTED_LOCALES as readonly string[]).includes(lang))
          await setLocale(lang as Locale);
      }
      notifications.show({ color: 'green', message: t('saved') });
      onClose();
    } catch (e) {
      console.warn('user not saved', e);
      const detail = serverDetail(e);
      notifications.show({ color: 'red', message: `${t('saveError')}${detail}` });
    } finally {
      setSaving(false);
    }
  };

  const matrix = decodePermissionMatrix(values.advancedPerms);
  const toggleCell = (
    area: (typeof PERMISSION_AREAS)[number],
    action: (typeof PERMISSION_ACTIONS)[number],
  ) => {
    const next = { ...matrix, [area]: { ...matrix[area], [action]: !matrix[area][action] } };
    set('advancedPerms', encodePermissionMatrix(next, values.advancedPerms));
  };

  return (
    <Modal opened onClose={onClose} title={title} size="lg" data-testid="user-edit">
      <Stack>
        {denial && <Alert color="red">{t(denial)}</Alert>}
        {!denial && readonlyActor && <Alert color="yellow">{t('readonlyNotice')}</Alert>}
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="account" data-testid="user-tab-account">
              {t('tabs.account')}
            </Tabs.Tab>
            <Tabs.Tab value="preferences" data-testid="user-tab-preferences">
              {t('tabs.preferences')}
            </Tabs.Tab>
            {showPermissions && (
              <Tabs.Tab value="permissions" data-testid="user-tab-permissions">
                {t('tabs.permissions')}
              </Tabs.Tab>
            )}
            <Tabs.Tab value="address" data-testid="user-tab-address">
              {t('tabs.address')}
            </Tabs.Tab>
            {showBilling && (
              <Tabs.Tab value="billing" data-testid="user-tab-billing">
                {t('tabs.billing')}
              </Tabs.Tab>
            )}
          </Tabs.List>

          <Tabs.Panel value="account" pt="sm">
            <Stack gap="xs">
              <TextInput label={t('fields.name')} required data-testid="user-name" {...text('name')} />
              <TextInput label={t('fields.email')} required data-testid="user-email" {...text('email')} />
              <TextInput label={t('fields.phone')} data-testid="user-phone" {...text('phone')} />
              <PasswordInput
                label={t('fields.password')}
                description={stored ? t('passwordKeep') : undefined}
                required={!stored}
                value={values.password}
                error={err('password')}
                onChange={(e) => set('password', e.currentTarget.value)}
                autoComplete="new-password"
                data-testid="user-password"
              />
              <PasswordInput
                label={t('fields.confirmPassword')}
                required={!stored}
                value={values.confirmPassword}
                error={err('confirmPassword')}
                onChange={(e) => set('confirmPassword', e.currentTarget.value)}
                autoComplete="new-password"
                data-testid="user-confirm-password"
              />
            </Stack>
          </Tabs.Panel>

          <Tabs.Panel value="preferences" pt="sm">
            <UserPreferencesFields values={values} set={set} err={err} text={text} />
          </Tabs.Panel>

          {showPermissions && (
            <Tabs.Panel value="permissions" pt="sm">
              <Stack gap="xs">
                <SimpleGrid cols={2}>
                  {admin && (
                    <Switch
                      label={t('fields.administrator')}
                      checked={values.administrator}
                      onChange={(e) => set('administrator', e.currentTarget.checked)}
                      data-testid="user-administrator"
                    />
                  )}
                  {(['disabled', 'readonly', 'deviceReadonly', 'limitCommands'] as const).map((k) => (
                    <Switch
                      key={k}
                      label={t(`fields.${k}`)}
                      checked={values[k]}
                      disabled={k !== 'disabled' && locked(k)}
                      onChange={(e) => set(k, e.currentTarget.checked)}
                      data-testid={`user-${k}`}
                    />
                  ))}
                </SimpleGrid>
                {showLimits && (
                  <SimpleGrid cols={2}>
                    {(['deviceLimit', 'userLimit'] as const).map((k) => (
                      <NumberInput
                        key={k}
                        label={t(`fields.${k}`)}
                        description={t(admin ? 'limitHelp' : 'reseller.limitHelp')}
                        allowDecimal={false}
                        min={-1}
                        value={values[k]}
                        error={err(k)}
                        disabled={k === 'userLimit' && !showReseller}
                        onChange={(v) => set(k, String(v))}
                        data-testid={`user-${k}`}
                      />
                    ))}
                  </SimpleGrid>
                )}
                {!showLimits && (err('deviceLimit') || err('userLimit') || err('administrator')) && (
                  <Alert color="red">{err('deviceLimit') ?? err('userLimit') ?? err('administrator')}</Alert>
                )}
                {showReseller && (
                  <ResellerFields
                    values={values}
                    set={set}
                    errors={{ reseller: err('reseller'), resellerDomain: err('resellerDomain') }}
                  />
                )}
                {!showReseller && err('reseller') && <Alert color="red">{err('reseller')}</Alert>}
                <DateField
                  clearable
                  label={t('fields.expirationTime')}
                  description={t('expirationHelp')}
                  value={values.expirationTime}
                  error={err('expirationTime')}
                  onChange={(value) => set('expirationTime', value)}
                  data-testid="user-expiration"
                />
                {advancedEnabled && (
                  <Stack gap={4} data-testid="user-advanced-perms">
                    <Group justify="space-between">
                      <Text size="sm" fw={500}>
                        {t('advanced.title')}
                      </Text>
                      <Switch
                        size="xs"
                        label={t('advanced.use')}
                        checked={values.advancedPerms !== ''}
                        onChange={(e) =>
                          set('advancedPerms', e.currentTarget.checked ? encodePermissionMatrix(matrix) : '')
                        }
                        data-testid="user-advanced-use"
                      />
                    </Group>
                    <Text size="xs" c="dimmed">
                      {t('advanced.help')}
                    </Text>
                    {err('advancedPerms') && (
                      <Text size="xs" c="red">
                        {err('advancedPerms')}
                      </Text>
                    )}
                    {values.advancedPerms !== '' && (
                      <ScrollArea>
                        <Table fz="xs" withTableBorder>
                          <Table.Thead>
                            <Table.Tr>
                              <Table.Th />
                              {PERMISSION_ACTIONS.map((a) => (
                                <Table.Th key={a}>{t(`advanced.actions.${a}`)}</Table.Th>
                              ))}
                            </Table.Tr>
                          </Table.Thead>
                          <Table.Tbody>
                            {PERMISSION_AREAS.map((area) => (
                              <Table.Tr key={area}>
                                <Table.Td>{t(`advanced.areas.${area}`)}</Table.Td>
                                {PERMISSION_ACTIONS.map((action) => (
                                  <Table.Td key={action}>
                                    {permissionIndex(area, action) !== undefined && (
                                      <Checkbox
                                        size="xs"
                                        aria-label={`${t(`advanced.areas.${area}`)} ${t(`advanced.actions.${action}`)}`}
                                        checked={!!matrix[area][action]}
                                        onChange={() => toggleCell(area, action)}
                                        data-testid={`perm-${area}-${action}`}
                                      />
                                    )}
                                  </Table.Td>
                                ))}
                              </Table.Tr>
                            ))}
                          </Table.Tbody>
                        </Table>
                      </ScrollArea>
                    )}
                    {values.advancedPerms !== '' && (
                      <Text size="xs" ff="monospace" data-testid="user-advanced-string">
                        {values.advancedPerms}
                      </Text>
                    )}
                  </Stack>
                )}
              </Stack>
            </Tabs.Panel>
          )}

          <Tabs.Panel value="address" pt="sm">
            <SimpleGrid cols={2}>
              {USER_ADDRESS_FIELDS.map((f) => (
                <TextInput
                  key={f}
                  label={t(`address.${f}`)}
                  value={values.address[f]}
                  error={err(`address.${f}`)}
                  onChange={(e) => {
                    const v = e.currentTarget.value;
                    setValues((s) => ({ ...s, address: { ...s.address, [f]: v } }));
                  }}
                  data-testid={`user-address-${f}`}
                />
              ))}
            </SimpleGrid>
          </Tabs.Panel>

          {showBilling && (
            <Tabs.Panel value="billing" pt="sm">
              <UserBillingTab
                values={billing}
                errors={billingErrors}
                onChange={setBilling}
                attributes={stored?.attributes ?? null}
                ns={ns}
              />
            </Tabs.Panel>
          )}
        </Tabs>
        {Object.keys(errors).length + Object.keys(billingErrors).length > 0 && (
          <Text size="xs" c="red" data-testid="user-form-invalid">
            {t('validation.checkFormData', { ns: 'common' })}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('cancel')}
          </Button>
          <Button onClick={() => void submit()} loading={saving} disabled={!canSave} data-testid="user-save">
            {t('save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
