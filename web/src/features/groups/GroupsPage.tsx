// /groups (SPEC §2 side menu, bit 48; §3 Group): the groups as an indented tree, search by name (ancestors of a
// match stay for context), create/edit (name, parent group — never itself or one of its descendants —,
// attributes) and delete with confirmation. Save = PUT when id > 0 else POST; deletes need an id > 0 (§5).
import { ActionIcon, Alert, Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconFolder, IconLink, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import {
  can,
  canDeleteById,
  emptyGroupForm,
  filterGroupTree,
  groupParentOptions,
  groupToForm,
  groupTree,
  isReadonly,
  parseGroupForm,
  type Group as TGroup,
  type GroupFormValues,
} from '@rastro/domain';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { openDialog } from '../../shell/dialogs.ts';
import { HttpError, refusalMessage } from '../../api/http.ts';
import { useDeleteResource, useResourceList, useSaveResource } from '../../api/resources.ts';
import { useSession } from '../../stores/session.ts';
import { AttributesEditor } from '../../components/AttributesEditor.tsx';

export function GroupsPage() {
  const { t } = useTranslation('groups');
  const list = useResourceList('groups');
  const save = useSaveResource('groups');
  const remove = useDeleteResource('groups');
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  const ctx = { user, server, isPlus, ns };
  const readonly = isReadonly(user, server);
  const mayCreate = !readonly && can(ctx, 'groups', 'create');
  const mayEdit = !readonly && can(ctx, 'groups', 'edit');
  const mayDelete = !readonly && can(ctx, 'groups', 'delete');
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState<GroupFormValues | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [deleting, setDeleting] = useState<TGroup | null>(null);

  const groups = useMemo(() => list.data ?? [], [list.data]);
  const tree = useMemo(() => groupTree(groups), [groups]);
  const rows = useMemo(() => filterGroupTree(tree, query), [tree, query]);
  const parentOptions = useMemo(
    () =>
      editing
        ? groupParentOptions(groups, editing.id).map((r) => ({
            value: String(r.group.id),
            label: `${'— '.repeat(r.depth)}${r.group.name}`,
          }))
        : [],
    [groups, editing],
  );
  const nameOf = (id: number) => groups.find((g) => g.id === id)?.name;

  const open = (v: GroupFormValues) => {
    setErrors({});
    setEditing(v);
  };

  const submit = async () => {
    if (!editing) return;
    const r = parseGroupForm(editing, groups);
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
      console.warn('group not saved', err);
      if (err instanceof HttpError && err.status === 400 && /cycle/i.test(err.text))
        setErrors({ groupId: 'errors.parentCycle' });
      else
        notifications.show({
          color: 'red',
          message:
            refusalMessage(err) ??
            (err instanceof HttpError && err.status === 400
              ? `${t('saveError')}: ${err.text}`
              : t('saveError')),
        });
    }
  };

  const confirmDelete = async () => {
    if (!deleting || !canDeleteById(deleting.id)) return;
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', message: t('deleted') });
    } catch (err) {
      console.warn('group not deleted', err);
      notifications.show({ color: 'red', message: refusalMessage(err) ?? t('deleteError') });
    }
    setDeleting(null);
  };

  return (
    <Stack gap="sm" data-testid="groups-page">
      <Group justify="space-between" wrap="nowrap">
        <TextInput
          size="xs"
          style={{ flex: 1 }}
          leftSection={<IconSearch size={14} />}
          placeholder={t('search')}
          aria-label={t('search')}
          value={query}
          onChange={(e) => setQuery(e.currentTarget.value)}
          data-testid="groups-search"
        />
        {mayCreate && (
          <Button
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => open(emptyGroupForm())}
            data-testid="group-add"
          >
            {t('add')}
          </Button>
        )}
      </Group>
      {list.isError && <Alert color="red">{t('loadError')}</Alert>}
      {list.data && rows.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="groups-empty">
          {query ? t('noMatch') : t('empty')}
        </Text>
      )}
      <Stack gap={0} data-testid="groups-tree">
        {rows.map((r) => (
          <Group
            key={r.group.id}
            justify="space-between"
            wrap="nowrap"
            py={4}
            pl={8 + r.depth * 20}
            pr={4}
            style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
            data-testid="group-row"
            data-group-id={r.group.id}
            data-depth={r.depth}
          >
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <IconFolder size={16} color={r.hasChildren ? 'var(--mantine-color-blue-6)' : undefined} />
              <Text size="sm" truncate data-testid="group-name">
                {r.group.name}
              </Text>
              {r.group.groupId > 0 && r.depth === 0 && nameOf(r.group.groupId) === undefined && (
                <Text size="xs" c="dimmed">
                  {t('parentHidden')}
                </Text>
              )}
            </Group>
            <Group gap={4} wrap="nowrap">
              {mayEdit && (
                <ActionIcon
                  variant="subtle"
                  aria-label={t('button', { ns: 'linkObjects' })}
                  onClick={() =>
                    openDialog('linkObjects', { owner: 'group', id: r.group.id, name: r.group.name })
                  }
                  data-testid="group-link-objects"
                >
                  <IconLink size={16} />
                </ActionIcon>
              )}
              {mayEdit && (
                <ActionIcon
                  variant="subtle"
                  aria-label={t('edit')}
                  onClick={() => open(groupToForm(r.group))}
                  data-testid="group-edit"
                >
                  <IconEdit size={16} />
                </ActionIcon>
              )}
              {mayDelete && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('delete')}
                  onClick={() => setDeleting(r.group)}
                  data-testid="group-delete"
                >
                  <IconTrash size={16} />
                </ActionIcon>
              )}
            </Group>
          </Group>
        ))}
      </Stack>

      {editing && (
        <Modal
          opened
          onClose={() => setEditing(null)}
          title={editing.id > 0 ? t('editTitle') : t('addTitle')}
          data-testid="group-form"
        >
          <Stack>
            <TextInput
              label={t('fields.name')}
              required
              value={editing.name}
              error={errors.name ? t(errors.name) : undefined}
              onChange={(e) => setEditing({ ...editing, name: e.currentTarget.value })}
              data-testid="group-name-input"
            />
            <Select
              label={t('fields.parent')}
              placeholder={t('noParent')}
              clearable
              searchable
              data={parentOptions}
              value={editing.groupId ? String(editing.groupId) : null}
              error={errors.groupId ? t(errors.groupId) : undefined}
              onChange={(v) => setEditing({ ...editing, groupId: v ? Number(v) : 0 })}
              comboboxProps={{ withinPortal: true }}
              data-testid="group-parent"
            />
            <AttributesEditor
              ns="groups"
              rows={editing.attributes}
              errors={errors}
              onChange={(attributes) => setEditing({ ...editing, attributes })}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                {t('cancel')}
              </Button>
              <Button onClick={() => void submit()} loading={save.isPending} data-testid="group-save">
                {t('save')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}

      {deleting && (
        <Modal
          opened
          onClose={() => setDeleting(null)}
          title={t('deleteTitle')}
          data-testid="group-delete-confirm"
        >
          <Stack>
            <Text size="sm">{t('deleteQuestion', { name: deleting.name })}</Text>
            {tree.some((r) => r.group.groupId === deleting.id) && (
              <Text size="xs" c="dimmed">
                {t('deleteChildren')}
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>
                {t('cancel')}
              </Button>
              <Button
                color="red"
                onClick={() => void confirmDelete()}
                loading={remove.isPending}
                data-testid="group-delete-yes"
              >
                {t('delete')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Stack>
  );
}
