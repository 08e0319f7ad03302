// The permissions tab of the user form (administrators, and managers editing someone else): administrator, disabled
// and the inherited restrictions, the device and user limits (administrators and resellers), the reseller settings,
// the expiry and, with {ns}.enableAdvancedPerms, the advanced permission matrix (area × action).
import {
  Alert,
  Checkbox,
  Group,
  NumberInput,
  ScrollArea,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
} from '@mantine/core';
import {
  PERMISSION_ACTIONS,
  PERMISSION_AREAS,
  decodePermissionMatrix,
  encodePermissionMatrix,
  permissionIndex,
  type UserFormValues,
} from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../components/DateField.tsx';
import { ResellerFields } from './ResellerFields.tsx';
import type { UserEditRights } from './useUserEditForm.ts';

interface Props {
  values: UserFormValues;
  set<K extends keyof UserFormValues>(k: K, v: UserFormValues[K]): void;
  err(k: string): string | undefined;
  rights: UserEditRights;
}

function AdvancedPermissions({ values, set, err }: Omit<Props, 'rights'>) {
  const { t } = useTranslation('users');
  const matrix = decodePermissionMatrix(values.advancedPerms);
  const on = values.advancedPerms !== '';
  const toggleCell = (
    area: (typeof PERMISSION_AREAS)[number],
    action: (typeof PERMISSION_ACTIONS)[number],
  ) => {
    const next = { ...matrix, [area]: { ...matrix[area], [action]: !matrix[area][action] } };
    set('advancedPerms', encodePermissionMatrix(next, values.advancedPerms));
  };
  return (
    <Stack gap={4} data-testid="user-advanced-perms">
      <Group justify="space-between">
        <Text size="sm" fw={500}>
          {t('advanced.title')}
        </Text>
        <Switch
          size="xs"
          label={t('advanced.use')}
          checked={on}
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
      {on && (
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
      {on && (
        <Text size="xs" ff="monospace" data-testid="user-advanced-string">
          {values.advancedPerms}
        </Text>
      )}
    </Stack>
  );
}

export function UserPermissionsTab({ values, set, err, rights }: Props) {
  const { t } = useTranslation('users');
  const { admin, showLimits, showReseller, locked } = rights;
  return (
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
      {rights.advancedEnabled && <AdvancedPermissions values={values} set={set} err={err} />}
    </Stack>
  );
}
