// The `maintenances` dialog of the user menu (SPEC §2, bit 96; §3 Maintenance): list and form (name, type
// totalDistance or hours, start, cycle). Traccar keeps metres for totalDistance and milliseconds for hours
// (CONTRACT §3); the form shows the user's distance unit and hours and converts. Each row shows the next due value
// (start + cycle; the event fires whenever the value crosses start + k·cycle). Deletes need an id > 0 (SPEC §5).
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import {
  MAINTENANCE_TYPES,
  UNIT_LABELS,
  can,
  canDeleteById,
  canSeeMenu,
  emptyMaintenanceForm,
  isReadonly,
  maintenanceFromDisplay,
  maintenanceNextDue,
  maintenanceToDisplay,
  maintenanceToForm,
  maintenanceUnit,
  parseMaintenanceForm,
  readDecimal,
  type DistanceUnit,
  type Maintenance,
  type MaintenanceFormValues,
} from '@rastro/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { InlineDeleteConfirm } from '../../components/InlineDeleteConfirm.tsx';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { HttpError, serverDetail } from '../../api/http.ts';
import { useDeleteResource, useResourceList, useSaveResource } from '../../api/resources.ts';
import { useSession } from '../../stores/session.ts';

function separators(locale: string): { decimal: string; thousand: string } {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6);
  return {
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    thousand: parts.find((p) => p.type === 'group')?.value ?? ',',
  };
}

export function MaintenancesDialog({ onClose }: DialogComponentProps) {
  const { t, i18n } = useTranslation('maintenances');
  const locale = i18n.language;
  const list = useResourceList('maintenance');
  const save = useSaveResource('maintenance');
  const remove = useDeleteResource('maintenance');
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  const ctx = { user, server, isPlus, ns };
  const allowed = canSeeMenu(ctx, 'maintenance');
  const readonly = isReadonly(user, server);
  const mayCreate = !readonly && can(ctx, 'maintenance', 'create');
  const mayEdit = !readonly && can(ctx, 'maintenance', 'edit');
  const mayDelete = !readonly && can(ctx, 'maintenance', 'delete');
  const distanceUnit: DistanceUnit = useUnits().distanceUnit;
  const sep = useMemo(() => separators(locale), [locale]);
  const nf = useMemo(() => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }), [locale]);
  const [editing, setEditing] = useState<MaintenanceFormValues | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [deleting, setDeleting] = useState<Maintenance | null>(null);

  const unitLabel = (type: string) => {
    const u = maintenanceUnit(type, distanceUnit);
    return u === 'h' ? t('hoursUnit') : u ? UNIT_LABELS[u] : '';
  };
  const show = (type: string, stored: number) =>
    `${nf.format(maintenanceToDisplay(type, stored, distanceUnit))} ${unitLabel(type)}`.trim();
  const typeLabel = (type: string) => t(`types.${type}`, { defaultValue: type });

  const typeOptions = useMemo(() => {
    const types: string[] = [...MAINTENANCE_TYPES];
    if (editing && !types.includes(editing.type)) types.push(editing.type);
    return types.map((v) => ({ value: v, label: typeLabel(v) }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editing?.type, t]);

  const preview = useMemo(() => {
    if (!editing) return null;
    const start = readDecimal(editing.start) ?? 0;
    const period = readDecimal(editing.period);
    if (period === null || period <= 0) return null;
    const due = maintenanceNextDue(
      maintenanceFromDisplay(editing.type, start, distanceUnit),
      maintenanceFromDisplay(editing.type, period, distanceUnit),
    );
    return show(editing.type, due);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editing, distanceUnit, nf]);

  const open = (v: MaintenanceFormValues) => {
    setErrors({});
    setEditing(v);
  };

  const submit = async () => {
    if (!editing) return;
    const r = parseMaintenanceForm(editing, distanceUnit);
    if (!r.ok) {
      setErrors(r.errors);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync(r.value);
      notifications.show({ color: 'green', message: t('saved') });
      setEditing(null);
    } catch (err) {
      console.warn('maintenance not saved', err);
      const text = err instanceof HttpError && err.status === 400 ? serverDetail(err) : '';
      notifications.show({ color: 'red', message: `${t('saveError')}${text}` });
    }
  };

  const confirmDelete = async () => {
    if (!deleting || !canDeleteById(deleting.id)) return;
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', message: t('deleted') });
    } catch (err) {
      console.warn('maintenance not deleted', err);
      notifications.show({ color: 'red', message: t('deleteError') });
    }
    setDeleting(null);
  };

  const numberField = (key: 'start' | 'period', label: string, testId: string) =>
    editing && (
      <NumberInput
        label={label}
        required={key === 'period'}
        min={0}
        decimalSeparator={sep.decimal}
        thousandSeparator={sep.thousand}
        decimalScale={3}
        hideControls
        rightSection={
          <Text size="xs" c="dimmed">
            {unitLabel(editing.type)}
          </Text>
        }
        rightSectionWidth={48}
        value={editing[key] === '' ? '' : Number(editing[key])}
        error={errors[key] ? t(errors[key]) : undefined}
        onChange={(v) => setEditing({ ...editing, [key]: v === '' ? '' : String(v) })}
        data-testid={testId}
      />
    );

  const title = editing ? (editing.id > 0 ? t('editTitle') : t('addTitle')) : t('title');

  return (
    <Modal
      opened
      onClose={onClose}
      size={editing ? 520 : 760}
      title={title}
      data-testid="maintenances-dialog"
    >
      {!allowed ? (
        <Alert color="red">{t('denied')}</Alert>
      ) : editing ? (
        <Stack gap="sm" data-testid="maintenance-form">
          <TextInput
            label={t('fields.name')}
            required
            value={editing.name}
            error={errors.name ? t(errors.name) : undefined}
            onChange={(e) => setEditing({ ...editing, name: e.currentTarget.value })}
            data-testid="maintenance-name"
          />
          <Select
            label={t('fields.type')}
            data={typeOptions}
            value={editing.type}
            allowDeselect={false}
            error={errors.type ? t(errors.type) : undefined}
            onChange={(v) => v && setEditing({ ...editing, type: v })}
            comboboxProps={{ withinPortal: true }}
            data-testid="maintenance-type"
          />
          {numberField('start', t('fields.start'), 'maintenance-start')}
          {numberField('period', t('fields.period'), 'maintenance-period')}
          {preview && (
            <Text size="sm" c="blue" data-testid="maintenance-next">
              {t('nextDue', { value: preview })}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setEditing(null)}>
              {t('cancel')}
            </Button>
            <Button onClick={() => void submit()} loading={save.isPending} data-testid="maintenance-save">
              {t('save')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('description')}
            </Text>
            {mayCreate && (
              <Button
                size="xs"
                leftSection={<IconPlus size={14} />}
                onClick={() => open(emptyMaintenanceForm())}
                data-testid="maintenance-add"
              >
                {t('add')}
              </Button>
            )}
          </Group>
          {list.isError && <Alert color="red">{t('loadError')}</Alert>}
          {list.data && list.data.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('empty')}
            </Text>
          )}
          {!!list.data?.length && (
            <Table striped fz="sm" data-testid="maintenances-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('fields.name')}</Table.Th>
                  <Table.Th>{t('fields.type')}</Table.Th>
                  <Table.Th>{t('fields.start')}</Table.Th>
                  <Table.Th>{t('fields.period')}</Table.Th>
                  <Table.Th>{t('fields.next')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data.map((m) => (
                  <Table.Tr key={m.id} data-testid="maintenance-row" data-maintenance-id={m.id}>
                    <Table.Td>{m.name}</Table.Td>
                    <Table.Td>{typeLabel(m.type)}</Table.Td>
                    <Table.Td>{show(m.type, m.start)}</Table.Td>
                    <Table.Td data-testid="maintenance-period-cell">{show(m.type, m.period)}</Table.Td>
                    <Table.Td>{show(m.type, maintenanceNextDue(m.start, m.period))}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        {mayEdit && (
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('edit')}
                            onClick={() => open(maintenanceToForm(m, distanceUnit))}
                            data-testid="maintenance-edit"
                          >
                            <IconEdit size={16} />
                          </ActionIcon>
                        )}
                        {mayDelete && (
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('delete')}
                            onClick={() => setDeleting(m)}
                            data-testid="maintenance-delete"
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {deleting && (
            <InlineDeleteConfirm
              title={t('deleteTitle')}
              question={t('deleteQuestion', { name: deleting.name })}
              cancelLabel={t('cancel')}
              deleteLabel={t('delete')}
              onCancel={() => setDeleting(null)}
              onConfirm={() => void confirmDelete()}
              loading={remove.isPending}
              testId="maintenance-delete"
            />
          )}
        </Stack>
      )}
    </Modal>
  );
}
