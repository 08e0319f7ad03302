// /groups (SPEC §2 side menu, bit 48; §3 Group): the groups as an indented tree, search by name (ancestors of a
// match stay for context), create/edit (name, parent group — never itself or one of its descendants —,
// attributes) and delete with confirmation. Save = PUT when id > 0 else POST; deletes need an id > 0 (§5).
// The list, form frame and delete are the catalogue scaffold (components/Catalogue*).
import { Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconFolder } from '@tabler/icons-react';
import {
  emptyGroupForm,
  filterGroupTree,
  groupParentOptions,
  groupToForm,
  groupTree,
  parseGroupForm,
  type Group as TGroup,
  type GroupFormValues,
} from '@rastro/domain';
import { useMemo } from 'react';
import { openDialog } from '../../shell/dialogs.ts';
import { HttpError } from '../../api/http.ts';
import { AttributesEditor } from '../../components/AttributesEditor.tsx';
import { fieldBinder } from '../../components/boundField.ts';
import { CatalogueForm } from '../../components/CatalogueDialog.tsx';
import { CatalogueList } from '../../components/CatalogueList.tsx';
import type { DataColumn } from '../../components/DataTable.tsx';
import { useCatalogue, type Catalogue } from '../../components/useCatalogue.ts';

function GroupFields({ c, form }: { c: Catalogue<'groups', GroupFormValues>; form: GroupFormValues }) {
  const { t, err } = c;
  const field = fieldBinder({ t, values: form, set: (k, v) => c.edit({ [k]: v }), err }, 'group');
  const parentOptions = useMemo(
    () =>
      groupParentOptions(c.items, form.id).map((r) => ({
        value: String(r.group.id),
        label: `${'— '.repeat(r.depth)}${r.group.name}`,
      })),
    [c.items, form.id],
  );
  return (
    <>
      <TextInput {...field('name')} required data-testid="group-name-input" />
      <Select
        label={t('fields.parent')}
        placeholder={t('noParent')}
        clearable
        searchable
        data={parentOptions}
        value={form.groupId ? String(form.groupId) : null}
        error={err('groupId')}
        onChange={(v) => c.edit({ groupId: v ? Number(v) : 0 })}
        data-testid="group-parent"
      />
      <AttributesEditor
        ns="groups"
        rows={form.attributes}
        errors={c.errors}
        onChange={(attributes) => c.edit({ attributes })}
      />
    </>
  );
}

export function GroupsPage() {
  const c = useCatalogue<'groups', GroupFormValues>({
    resource: 'groups',
    ns: 'groups',
    area: 'groups',
    parse: parseGroupForm,
    saveError: (err) =>
      err instanceof HttpError && err.status === 400 && /cycle/i.test(err.text)
        ? { errors: { groupId: 'errors.parentCycle' } }
        : {},
  });
  const { t, items } = c;
  const tree = useMemo(() => groupTree(items), [items]);
  const depth = useMemo(() => new Map(tree.map((r) => [r.group.id, r])), [tree]);
  const columns: DataColumn<TGroup>[] = [
    {
      key: 'name',
      header: t('fields.name'),
      cell: (g) => (
        <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }} pl={(depth.get(g.id)?.depth ?? 0) * 20}>
          <IconFolder
            size={16}
            color={depth.get(g.id)?.hasChildren ? 'var(--mantine-color-blue-6)' : undefined}
          />
          <Text size="sm" truncate data-testid="group-name">
            {g.name}
          </Text>
          {g.groupId > 0 && !depth.get(g.id)?.depth && !items.some((p) => p.id === g.groupId) && (
            <Text size="xs" c="dimmed">
              {t('parentHidden')}
            </Text>
          )}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="sm" data-testid="groups-page">
      <CatalogueList
        c={c}
        prefix="group"
        plural="groups"
        columns={columns}
        hideHeader
        filterRows={(query) => filterGroupTree(tree, query).map((r) => r.group)}
        newForm={emptyGroupForm}
        toForm={groupToForm}
        onLink={(g) => openDialog('linkObjects', { owner: 'group', id: g.id, name: g.name })}
        linkLabel={t('button', { ns: 'linkObjects' })}
        rowAttrs={(g) => ({ 'data-group-id': g.id, 'data-depth': depth.get(g.id)?.depth ?? 0 })}
        deleteNote={(g) => (tree.some((r) => r.group.groupId === g.id) ? t('deleteChildren') : null)}
      />
      {c.editing && (
        <CatalogueForm c={c} prefix="group" testId="group-form" modal>
          <GroupFields c={c} form={c.editing} />
        </CatalogueForm>
      )}
    </Stack>
  );
}
