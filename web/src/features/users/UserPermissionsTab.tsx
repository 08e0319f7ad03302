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
  Text,
  TextInput,
} from '@mantine/core';
import {
  PERMISSION_ACTIONS,
  PERMISSION_AREAS,
  decodePermissionMatrix,
  encodePermissionMatrix,
  permissionIndex,
} from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../../components/DataTable.tsx';
import { DateField } from '../../components/DateField.tsx';
import type { UserForm } from './useUserEditForm.ts';

type Area = (typeof PERMISSION_AREAS)[number];

function AdvancedPermissions({ f: { values, set, err } }: { f: UserForm }) {
  const { t } = useTranslation('users');
  const matrix = decodePermissionMatrix(values.advancedPerms);
  const on = values.advancedPerms !== '';
  const toggleCell = (area: Area, action: (typeof PERMISSION_ACTIONS)[number]) => {
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
          <DataTable
            fz="xs"
            withTableBorder
            rows={PERMISSION_AREAS}
            rowKey={(area) => area}
            columns={[
              { key: 'area', cell: (area) => t(`advanced.areas.${area}`) },
              ...PERMISSION_ACTIONS.map((action) => ({
                key: action,
                header: t(`advanced.actions.${action}`),
                cell: (area: Area) =>
                  permissionIndex(area, action) !== undefined && (
                    <Checkbox
                      size="xs"
                      aria-label={`${t(`advanced.areas.${area}`)} ${t(`advanced.actions.${action}`)}`}
                      checked={!!matrix[area][action]}
                      onChange={() => toggleCell(area, action)}
                      data-testid={`perm-${area}-${action}`}
                    />
                  ),
              })),
            ]}
          />
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

// The reseller part (SPEC §3 "Reseller: domain, limit, can create resellers"): shown to administrators and to
// resellers that may create resellers. The rules (domain format, userLimit needed, who may change it) are the
// domain's reseller.ts, checked again by the server.
function ResellerFields({ f }: { f: UserForm }) {
  const { t } = useTranslation('users');
  return (
    <Stack gap="xs" data-testid="user-reseller">
      <Text size="sm" fw={500}>
        {t('reseller.title')}
      </Text>
      <Switch
        {...f.check('reseller')}
        label={t('reseller.enabled')}
        description={t('reseller.enabledHelp')}
        data-testid="user-reseller-enabled"
      />
      {f.values.reseller && (
        <>
          <TextInput
            {...f.field('resellerDomain')}
            label={t('reseller.domain')}
            description={t('reseller.domainHelp')}
            placeholder="frota.exemplo.com.br"
            data-testid="user-reseller-domain"
          />
          <Switch
            {...f.check('resellerCanCreate')}
            label={t('reseller.canCreate')}
            data-testid="user-reseller-can-create"
          />
        </>
      )}
      {f.err('reseller') && <Alert color="red">{f.err('reseller')}</Alert>}
    </Stack>
  );
}

export function UserPermissionsTab({ f }: { f: UserForm }) {
  const { t } = useTranslation('users');
  const { values, set, err } = f;
  const { admin, showLimits, showReseller, locked } = f.rights;
  return (
    <Stack gap="xs">
      <SimpleGrid cols={2}>
        {admin && <Switch {...f.check('administrator')} />}
        {(['disabled', 'readonly', 'deviceReadonly', 'limitCommands'] as const).map((k) => (
          <Switch key={k} {...f.check(k)} disabled={k !== 'disabled' && locked(k)} />
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
      {showReseller && <ResellerFields f={f} />}
      {!showReseller && err('reseller') && <Alert color="red">{err('reseller')}</Alert>}
      <DateField
        clearable
        {...f.field('expirationTime')}
        description={t('expirationHelp')}
        onChange={(value) => set('expirationTime', value)}
        data-testid="user-expiration"
      />
      {f.rights.advancedEnabled && <AdvancedPermissions f={f} />}
    </Stack>
  );
}
