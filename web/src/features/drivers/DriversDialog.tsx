// The `drivers` dialog of the user menu (SPEC §2, bit 80; §3 Driver): list with search, form with the SPEC
// fields (licence, category, filiation, validity, state, birth and first-licence dates, observations, CPF, phone,
// e-mail, QR access) kept in attributes, uniqueId required and unique (the server's 400 is shown translated),
// delete with confirmation. Save = PUT when id > 0 else POST.
import {
  ActionIcon,
  Alert,
  Avatar,
  Button,
  Checkbox,
  Divider,
  Group,
  Modal,
  PasswordInput,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import {
  DRIVER_DATE_FIELDS,
  DRIVER_FIELDS,
  DRIVER_IMAGE_KEY,
  attrString,
  can,
  canSeeMenu,
  driverImageUrl,
  driverSaveError,
  driverToForm,
  emptyDriverForm,
  foldText,
  isReadonly,
  parseDriverForm,
  type Driver,
  type DriverField,
  type DriverFormValues,
} from '@rastro/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { InlineDeleteConfirm } from '../../components/InlineDeleteConfirm.tsx';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { HttpError, serverDetail } from '../../api/http.ts';
import { useDeleteResource, useResourceList, useSaveResource } from '../../api/resources.ts';
import { useSession } from '../../stores/session.ts';
import { AttributesEditor } from '../../components/AttributesEditor.tsx';
import { DriverPhoto } from './DriverPhoto.tsx';

const driverImage = (ns: string, d: Driver): string =>
  driverImageUrl(d.id, attrString(d.attributes?.[DRIVER_IMAGE_KEY]), ns);

export function DriversDialog({ onClose }: DialogComponentProps) {
  const { t } = useTranslation('drivers');
  const list = useResourceList('drivers');
  const save = useSaveResource('drivers');
  const remove = useDeleteResource('drivers');
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  const ctx = { user, server, isPlus, ns };
  const allowed = canSeeMenu(ctx, 'drivers');
  const readonly = isReadonly(user, server);
  const mayCreate = !readonly && can(ctx, 'drivers', 'create');
  const mayEdit = !readonly && can(ctx, 'drivers', 'edit');
  const mayDelete = !readonly && can(ctx, 'drivers', 'delete');
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<DriverFormValues | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [deleting, setDeleting] = useState<Driver | null>(null);

  const rows = useMemo(() => {
    const q = foldText(query.trim());
    const all = list.data ?? [];
    if (!q) return all;
    return all.filter((d) =>
      [d.name, d.uniqueId, d.attributes?.cpf, d.attributes?.licenseNumber, d.attributes?.phone].some(
        (v) => typeof v === 'string' && foldText(v).includes(q),
      ),
    );
  }, [list.data, query]);

  const open = (v: DriverFormValues) => {
    setErrors({});
    setEditing(v);
  };

  const submit = async () => {
    if (!editing) return;
    const existing = list.data?.find((d) => d.id === editing.id) ?? null;
    const r = parseDriverForm(editing, existing);
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
      console.warn('driver not saved', err);
      const key = err instanceof HttpError ? driverSaveError(err.status, err.text) : 'saveError';
      if (key.startsWith('errors.')) setErrors({ uniqueId: key });
      notifications.show({ color: 'red', message: t(key) });
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', message: t('deleted') });
    } catch (err) {
      console.warn('driver not deleted', err);
      const text = serverDetail(err);
      notifications.show({ color: 'red', message: `${t('deleteError')}${text}` });
    }
    setDeleting(null);
  };

  const setField = (k: DriverField, value: string) =>
    editing && setEditing({ ...editing, fields: { ...editing.fields, [k]: value } });
  const setQr = (patch: Partial<DriverFormValues['qr']>) =>
    editing && setEditing({ ...editing, qr: { ...editing.qr, ...patch } });
  const err = (k: string) => (errors[k] ? t(errors[k]) : undefined);

  const title = editing ? (editing.id > 0 ? t('editTitle') : t('addTitle')) : t('title');

  return (
    <Modal opened onClose={onClose} size={editing ? 760 : 820} title={title} data-testid="drivers-dialog">
      {!allowed ? (
        <Alert color="red">{t('denied')}</Alert>
      ) : editing ? (
        <Stack gap="sm" data-testid="driver-form">
          {editing.id > 0 && (
            <DriverPhoto driver={(list.data ?? []).find((d) => d.id === editing.id)} ns={ns} />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={t('fields.name')}
              required
              value={editing.name}
              error={err('name')}
              onChange={(e) => setEditing({ ...editing, name: e.currentTarget.value })}
              data-testid="driver-name"
            />
            <TextInput
              label={t('fields.uniqueId')}
              description={t('uniqueIdHint')}
              required
              value={editing.uniqueId}
              error={err('uniqueId')}
              onChange={(e) => setEditing({ ...editing, uniqueId: e.currentTarget.value })}
              data-testid="driver-uniqueId"
            />
            {DRIVER_FIELDS.filter((k) => k !== 'observations').map((k) => (
              <TextInput
                key={k}
                type={DRIVER_DATE_FIELDS.includes(k) ? 'date' : k === 'email' ? 'email' : 'text'}
                label={t(`fields.${k}`)}
                value={editing.fields[k]}
                error={err(k)}
                onChange={(e) => setField(k, e.currentTarget.value)}
                data-testid={`driver-${k}`}
              />
            ))}
          </SimpleGrid>
          <Textarea
            label={t('fields.observations')}
            rows={3}
            value={editing.fields.observations}
            onChange={(e) => setField('observations', e.currentTarget.value)}
            data-testid="driver-observations"
          />
          <Divider label={t('qrTitle')} labelPosition="left" />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={t('fields.qrUsername')}
              value={editing.qr.qrUsername}
              autoComplete="off"
              onChange={(e) => setQr({ qrUsername: e.currentTarget.value })}
              data-testid="driver-qrUsername"
            />
            <PasswordInput
              label={t('fields.qrPassword')}
              description={editing.qrPasswordSet ? t('fields.qrPasswordKeep') : undefined}
              value={editing.qr.qrPassword}
              autoComplete="new-password"
              onChange={(e) => setQr({ qrPassword: e.currentTarget.value })}
              data-testid="driver-qrPassword"
            />
            <TextInput
              label={t('fields.qrLockTimeout')}
              inputMode="numeric"
              value={editing.qr.qrLockTimeout}
              error={err('qrLockTimeout')}
              onChange={(e) => setQr({ qrLockTimeout: e.currentTarget.value })}
            />
            <TextInput
              label={t('fields.qrLogoutTimeout')}
              inputMode="numeric"
              value={editing.qr.qrLogoutTimeout}
              error={err('qrLogoutTimeout')}
              onChange={(e) => setQr({ qrLogoutTimeout: e.currentTarget.value })}
            />
          </SimpleGrid>
          <Group gap="lg">
            {(['qrUnlockDevice', 'qrLogoutOnIgnitionOff', 'qrLockWithoutDriver'] as const).map((k) => (
              <Checkbox
                key={k}
                label={t(`fields.${k}`)}
                checked={editing.qr[k]}
                onChange={(e) => setQr({ [k]: e.currentTarget.checked })}
              />
            ))}
          </Group>
          <AttributesEditor
            ns="drivers"
            rows={editing.attributes}
            errors={errors}
            onChange={(attributes) => setEditing({ ...editing, attributes })}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setEditing(null)} data-testid="driver-cancel">
              {t('cancel')}
            </Button>
            <Button onClick={() => void submit()} loading={save.isPending} data-testid="driver-save">
              {t('save')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <Group justify="space-between" wrap="nowrap">
            <TextInput
              size="xs"
              style={{ flex: 1 }}
              leftSection={<IconSearch size={14} />}
              placeholder={t('search')}
              aria-label={t('search')}
              value={query}
              onChange={(e) => setQuery(e.currentTarget.value)}
              data-testid="drivers-search"
            />
            {mayCreate && (
              <Button
                size="xs"
                leftSection={<IconPlus size={14} />}
                onClick={() => open(emptyDriverForm())}
                data-testid="driver-add"
              >
                {t('add')}
              </Button>
            )}
          </Group>
          {list.isError && <Alert color="red">{t('loadError')}</Alert>}
          {list.data && rows.length === 0 && (
            <Text size="sm" c="dimmed" data-testid="drivers-empty">
              {query ? t('noMatch') : t('empty')}
            </Text>
          )}
          {rows.length > 0 && (
            <Table striped fz="sm" data-testid="drivers-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th />
                  <Table.Th>{t('fields.name')}</Table.Th>
                  <Table.Th>{t('fields.uniqueId')}</Table.Th>
                  <Table.Th>{t('fields.licenseNumber')}</Table.Th>
                  <Table.Th>{t('fields.phone')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((d) => (
                  <Table.Tr key={d.id} data-testid="driver-row" data-driver-id={d.id}>
                    <Table.Td>
                      <Avatar size="sm" src={driverImage(ns, d)} alt="" name={d.name} color="initials" />
                    </Table.Td>
                    <Table.Td>{d.name}</Table.Td>
                    <Table.Td>{d.uniqueId}</Table.Td>
                    <Table.Td>{String(d.attributes?.licenseNumber ?? '—')}</Table.Td>
                    <Table.Td>{String(d.attributes?.phone ?? '—')}</Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        {mayEdit && (
                          <ActionIcon
                            variant="subtle"
                            aria-label={t('edit')}
                            onClick={() => open(driverToForm(d))}
                            data-testid="driver-edit"
                          >
                            <IconEdit size={16} />
                          </ActionIcon>
                        )}
                        {mayDelete && (
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('delete')}
                            onClick={() => setDeleting(d)}
                            data-testid="driver-delete"
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
              testId="driver-delete"
            />
          )}
        </Stack>
      )}
    </Modal>
  );
}
