// Dialog `userEdit` (props { userId? }; none or 0 = a new user). Tabs: account, preferences, permissions (only for
// administrators, and for managers editing someone else) and address/contacts. Validation and the role rules come
// from @rastro/domain parseUserForm. Save = PUT /api/users/{id} (full object) or POST /api/users; saving one's own
// account updates the session user and applies the chosen language. "My Account" opens it with the own id.
// Administrators of a server with {ns}.enableBilling also get a Billing tab (UserBillingTab), saved in the same
// PUT/POST with the user's attributes. The form's state and save: useUserEditForm; the permissions tab:
// UserPermissionsTab.
import { Alert, PasswordInput, SimpleGrid, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  USER_ADDRESS_FIELDS,
  USER_EDIT_LOAD_RETRIES,
  USER_EDIT_LOAD_TIMEOUT_MS,
  type User,
} from '@rastro/domain';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/http.ts';
import { resourceKeys } from '../../api/resources.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { UserPreferencesFields } from './UserPreferencesFields.tsx';
import { UserBillingTab } from './UserBillingTab.tsx';
import { UserPermissionsTab } from './UserPermissionsTab.tsx';
import { useUserEditForm, type UserForm } from './useUserEditForm.ts';
import { fieldBinder } from '../../components/boundField.ts';
import { DialogFrame } from '../../components/DialogFrame.tsx';
import { SaveCancel } from '../../components/SaveCancel.tsx';

export function UserEditDialog({ props, onClose }: DialogComponentProps<'userEdit'>) {
  const userId = props.userId ?? 0;
  const { t } = useTranslation('users');
  const loaded = useQuery({
    queryKey: resourceKeys.item('users', userId),
    // GET /api/users/{id} with the SPEC §8 retries: up to 3 attempts, 3 s each
    queryFn: async () => {
      const signal = AbortSignal.timeout(USER_EDIT_LOAD_TIMEOUT_MS);
      return (await api.request<User>('GET', `/users/${userId}`, { signal })).data;
    },
    enabled: userId > 0,
    retry: USER_EDIT_LOAD_RETRIES - 1,
    retryDelay: 500,
    gcTime: 0,
  });

  // a spinner or the load failure until the stored user is in, then the form in the same frame
  const waiting = userId > 0 && !loaded.data;
  return (
    <DialogFrame
      title={userId > 0 ? t('editTitle') : t('addTitle')}
      size={waiting ? undefined : 'lg'}
      testId="user-edit"
      onClose={onClose}
      loading={waiting}
      error={waiting && loaded.isError && t('loadError')}
    >
      <UserEditForm key={userId} stored={loaded.data ?? null} onClose={onClose} />
    </DialogFrame>
  );
}

function AccountFields({ f, isNew }: { f: UserForm; isNew: boolean }) {
  const { t } = useTranslation('users');
  return (
    <Stack gap="xs">
      <TextInput {...f.field('name')} required />
      <TextInput {...f.field('email')} required />
      <TextInput {...f.field('phone')} />
      <PasswordInput
        {...f.field('password')}
        description={isNew ? undefined : t('passwordKeep')}
        required={isNew}
        autoComplete="new-password"
      />
      <PasswordInput
        {...f.field('confirmPassword')}
        required={isNew}
        autoComplete="new-password"
        data-testid="user-confirm-password"
      />
    </Stack>
  );
}

function AddressFields({ f }: { f: UserForm }) {
  const { t } = useTranslation('users');
  const err = (k: string) => f.err(`address.${k}`);
  const field = fieldBinder(
    { t, values: f.values.address, set: f.setAddress, err },
    'user-address',
    'address',
  );
  return (
    <SimpleGrid cols={2}>
      {USER_ADDRESS_FIELDS.map((k) => (
        <TextInput key={k} {...field(k)} />
      ))}
    </SimpleGrid>
  );
}

function UserEditForm({ stored, onClose }: { stored: User | null; onClose(): void }) {
  const { t } = useTranslation('users');
  const f = useUserEditForm(stored, onClose);
  const { rights } = f;
  const tabs: Array<readonly [string, ReactNode]> = [
    ['account', <AccountFields f={f} isNew={!stored} />],
    ['preferences', <UserPreferencesFields f={f} />],
    ...(rights.showPermissions ? [['permissions', <UserPermissionsTab f={f} />] as const] : []),
    ['address', <AddressFields f={f} />],
    ...(rights.showBilling
      ? [['billing', <UserBillingTab f={f} attributes={stored?.attributes ?? null} />] as const]
      : []),
  ];
  return (
    <Stack>
      {rights.denial && <Alert color="red">{t(rights.denial)}</Alert>}
      {!rights.denial && rights.readonlyActor && <Alert color="yellow">{t('readonlyNotice')}</Alert>}
      <Tabs value={f.tab} onChange={f.setTab} keepMounted={false}>
        <Tabs.List>
          {tabs.map(([k]) => (
            <Tabs.Tab key={k} value={k} data-testid={`user-tab-${k}`}>
              {t(`tabs.${k}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {tabs.map(([k, panel]) => (
          <Tabs.Panel key={k} value={k} pt="sm">
            {panel}
          </Tabs.Panel>
        ))}
      </Tabs>
      {f.invalid && (
        <Text size="xs" c="red" data-testid="user-form-invalid">
          {t('validation.checkFormData', { ns: 'common' })}
        </Text>
      )}
      <SaveCancel
        onCancel={onClose}
        onSave={() => void f.submit()}
        loading={f.saving}
        disabled={!rights.canSave}
        saveTestId="user-save"
      />
    </Stack>
  );
}
