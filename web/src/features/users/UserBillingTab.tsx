// The Billing tab of the user dialog (SPEC §3 User "Billing", §4 account states): administrators of a server with
// {ns}.enableBilling edit the customer's monthly billing, automatic suspension and trust unlock. Values are text
// until save; @rastro/domain parseUserBillingForm validates them and applyUserBilling writes the attributes.
import {
  Alert,
  Badge,
  Group,
  Input,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import {
  BILLING_AMOUNT_MODES,
  userAccountState,
  type Attributes,
  type BillingAmountMode,
  type UserBilling,
  type UserBillingForm,
} from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { fieldBinder, flagBinder } from '../../components/boundField.ts';
import { intlLocale } from '../../i18n/index.ts';
import type { UserForm } from './useUserEditForm.ts';

const STATE_COLOURS = { active: 'green', suspended: 'red', trust: 'yellow' } as const;

/** Active / suspended / trust until … badge of a user's attributes. */
export function AccountStateBadge({ attributes, ns }: { attributes: Attributes | null; ns: string }) {
  const { t } = useTranslation('users');
  const s = userAccountState(attributes, ns);
  const date =
    s.state === 'trust'
      ? new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'short', timeStyle: 'short' }).format(
          new Date(s.trustUntil),
        )
      : undefined;
  return (
    <Badge size="xs" color={STATE_COLOURS[s.state]} data-testid="account-state" data-state={s.state}>
      {t(`billing.state.${s.state}`, { date })}
    </Badge>
  );
}

/** `attributes`: the stored user's (account state), null for a new user. */
export function UserBillingTab({ f, attributes }: { f: UserForm; attributes: Attributes | null }) {
  const { t } = useTranslation('users');
  const { billing: values, billingErrors: errors, setBilling: onChange, ns } = f;
  const set = <K extends keyof UserBillingForm>(k: K, v: UserBillingForm[K]) =>
    onChange({ ...values, [k]: v });
  const err = (k: string) => {
    const key = errors[k as keyof UserBilling];
    return key ? t(key) : undefined;
  };
  const text = fieldBinder({ t, values, set, err }, 'billing', 'billing.fields');
  const modeControl = (k: 'fineMode' | 'discountMode') => (
    <Input.Wrapper label={t(`billing.fields.${k}`)}>
      <SegmentedControl
        size="xs"
        value={values[k]}
        onChange={(v) => set(k, v as BillingAmountMode)}
        data={BILLING_AMOUNT_MODES.map((m) => ({ value: m, label: t(`billing.modes.${m}`) }))}
        data-testid={`billing-${k}`}
      />
    </Input.Wrapper>
  );
  const flag = flagBinder({ t, values, set }, 'billing', 'billing.fields');

  return (
    <Stack gap="xs" data-testid="user-billing">
      {attributes && (
        <Group gap="xs">
          <Text size="sm">{t('billing.state.label')}</Text>
          <AccountStateBadge attributes={attributes} ns={ns} />
        </Group>
      )}
      <Switch {...flag('billing')} />
      <TextInput {...text('taxId')} description={t('billing.taxIdHelp')} />
      <TextInput {...text('description')} />
      <SimpleGrid cols={2}>
        <TextInput {...text('price')} inputMode="decimal" />
        <TextInput {...text('dueDay')} inputMode="numeric" description={t('billing.dueDayHelp')} />
      </SimpleGrid>
      <SimpleGrid cols={3}>
        <TextInput {...text('fine')} inputMode="decimal" />
        {modeControl('fineMode')}
        <TextInput {...text('interest')} inputMode="decimal" description={t('billing.interestHelp')} />
      </SimpleGrid>
      <SimpleGrid cols={3}>
        <TextInput {...text('discount')} inputMode="decimal" />
        {modeControl('discountMode')}
        <TextInput
          {...text('discountDays')}
          inputMode="numeric"
          description={t('billing.discountDaysHelp')}
        />
      </SimpleGrid>
      <SimpleGrid cols={2}>
        <Switch {...flag('autoSuspend')} />
        {values.autoSuspend ? <TextInput {...text('autoSuspendDays')} inputMode="numeric" /> : <span />}
        <Switch {...flag('trustUnlock')} />
        {values.trustUnlock ? <TextInput {...text('trustUnlockDays')} inputMode="numeric" /> : <span />}
      </SimpleGrid>
      {Object.keys(errors).length > 0 && (
        <Alert color="red" p="xs" data-testid="billing-invalid">
          {t('billing.invalid')}
        </Alert>
      )}
    </Stack>
  );
}
