// /computed: computed attributes (SPEC §3, menu bit 64). Everyone who reaches the page sees the attributes linked to
// them; only administrators create, edit, test, link and delete (CONTRACT: computed attributes are admin-only).
// The list and delete are the catalogue scaffold (components/Catalogue*); ComputedDialog edits, tests and links.
import { Badge, Code, Stack, Text } from '@mantine/core';
import {
  computedToForm,
  emptyComputedForm,
  type ComputedAttribute,
  type ComputedFormValues,
} from '@rastro/domain';
import { CatalogueList } from '../../components/CatalogueList.tsx';
import type { DataColumn } from '../../components/DataTable.tsx';
import { useCatalogue } from '../../components/useCatalogue.ts';
import { useSession } from '../../stores/session.ts';
import { ComputedDialog } from './ComputedDialog.tsx';

const byPriority = (a: ComputedAttribute, b: ComputedAttribute) =>
  b.priority - a.priority || a.description.localeCompare(b.description);

export function ComputedPage() {
  const admin = useSession((s) => !!s.user?.administrator);
  const c = useCatalogue<'attributes/computed', ComputedFormValues>({
    resource: 'attributes/computed',
    ns: 'computed',
    area: 'computed',
    rights: { create: admin, edit: admin, delete: admin },
  });
  const { t } = c;
  const columns: DataColumn<ComputedAttribute>[] = [
    {
      key: 'description',
      header: t('fields.description'),
      sortBy: (a) => a.description,
      cell: (a) => (
        <>
          <Text size="sm">{a.description || '—'}</Text>
          <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{a.expression}</Code>
        </>
      ),
    },
    {
      key: 'attribute',
      header: t('fields.attribute'),
      sortBy: (a) => a.attribute,
      cell: (a) => <Code>{a.attribute}</Code>,
    },
    {
      key: 'type',
      header: t('fields.type'),
      cell: (a) => (
        <Badge variant="light" size="sm">
          {t(`types.${a.type}`, { defaultValue: a.type })}
        </Badge>
      ),
    },
    { key: 'priority', header: t('fields.priority'), sortBy: (a) => a.priority, cell: (a) => a.priority },
  ];

  return (
    <Stack gap="sm" data-testid="computed-page">
      <CatalogueList
        c={c}
        prefix="computed"
        plural="computed"
        columns={columns}
        order={byPriority}
        intro={t('description')}
        newForm={emptyComputedForm}
        toForm={computedToForm}
        nameOf={(a) => a.description || a.attribute}
        rowAttrs={(a) => ({ 'data-attribute': a.attribute })}
      />
      {c.editing && <ComputedDialog initial={c.editing} onClose={() => c.setEditing(null)} />}
    </Stack>
  );
}
