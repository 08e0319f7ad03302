// The reseller part of the user form's permissions tab (SPEC §3 "Reseller: domain, limit, can create resellers"):
// shown to administrators and to resellers that may create resellers. The rules (domain format, userLimit needed,
// who may change it) are the domain's reseller.ts, checked again by the server.
import { Alert, Stack, Switch, Text, TextInput } from '@mantine/core';
import type { UserFormValues } from '@rastro/domain';
import { useTranslation } from 'react-i18next';

interface Props {
  values: UserFormValues;
  set<K extends keyof UserFormValues>(k: K, v: UserFormValues[K]): void;
  errors: { reseller?: string; resellerDomain?: string };
}

export function ResellerFields({ values, set, errors }: Props) {
  const { t } = useTranslation('users');
  return (
    <Stack gap="xs" data-testid="user-reseller">
      <Text size="sm" fw={500}>
        {t('reseller.title')}
      </Text>
      <Switch
        label={t('reseller.enabled')}
        description={t('reseller.enabledHelp')}
        checked={values.reseller}
        onChange={(e) => set('reseller', e.currentTarget.checked)}
        data-testid="user-reseller-enabled"
      />
      {values.reseller && (
        <>
          <TextInput
            label={t('reseller.domain')}
            description={t('reseller.domainHelp')}
            placeholder="frota.exemplo.com.br"
            value={values.resellerDomain}
            error={errors.resellerDomain}
            onChange={(e) => set('resellerDomain', e.currentTarget.value)}
            data-testid="user-reseller-domain"
          />
          <Switch
            label={t('reseller.canCreate')}
            checked={values.resellerCanCreate}
            onChange={(e) => set('resellerCanCreate', e.currentTarget.checked)}
            data-testid="user-reseller-can-create"
          />
        </>
      )}
      {errors.reseller && <Alert color="red">{errors.reseller}</Alert>}
    </Stack>
  );
}
