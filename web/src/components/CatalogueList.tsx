// The list view of a catalogue manager (issue #33): search box (or an intro line) and the add button, the load
// error and empty texts, the rows with their actions (link objects, edit, delete — each offered only when the
// viewer's rights allow it) and the delete confirmation. Test ids follow `prefix` (one item) and `plural`.
import { ActionIcon, Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconEdit, IconLink, IconPlus, IconTrash } from '@tabler/icons-react';
import { foldText } from '@rastro/domain';
import { useMemo, useState, type ReactNode } from 'react';
import type { ResourceType, ResourceTypes } from '../api/resources.ts';
import { DataTable, type DataColumn } from './DataTable.tsx';
import { InlineDeleteConfirm } from './InlineDeleteConfirm.tsx';
import { SearchInput } from './SearchInput.tsx';
import type { Catalogue } from './useCatalogue.ts';

export interface CatalogueListProps<R extends ResourceType, F extends { id: number }> {
  c: Catalogue<R, F>;
  /** One item's test-id prefix: `${prefix}-add`, `-row`, `-edit`, `-delete`, `-link-objects`. */
  prefix: string;
  /** The list's test-id prefix: `${plural}-table`, `-search`, `-empty`. */
  plural: string;
  /** The search box's test id when it is not `${plural}-search` (geofences: `geofence-search`). */
  searchTestId?: string;
  columns: DataColumn<ResourceTypes[R]>[];
  /** The texts a row is found by; with `filterRows`, the search box is shown. */
  searchIn?(row: ResourceTypes[R]): unknown[];
  /** Rows for a query when the manager orders or filters them itself (the groups tree). */
  filterRows?(query: string): ResourceTypes[R][];
  /** The order before any header is clicked (default: the server's). */
  order?(a: ResourceTypes[R], b: ResourceTypes[R]): number;
  /** The name the delete question shows (default: the row's name). */
  nameOf?(row: ResourceTypes[R]): string;
  /** The dimmed line shown left of the add button when there is no search box. */
  intro?: string;
  /** The add control when it is not a button opening `newForm()` (the geofences' shape menu). */
  add?: ReactNode;
  /** The text of an empty list when it is not `empty` (a reader without the create right). */
  emptyText?: string;
  newForm(): F;
  toForm(row: ResourceTypes[R]): F;
  /** Opens a form somewhere else than in `c.editing` (the geofence form is a global dialog). */
  openForm?(form: F): void;
  /** The form of a row when it must be fetched first (the edit button spins meanwhile); null: nothing to edit. */
  loadForm?(row: ResourceTypes[R]): Promise<F | null>;
  /** Opens the link-objects dialog for the row (offered with the edit right). */
  onLink?(row: ResourceTypes[R]): void;
  linkLabel?: string;
  /** The row's data attributes (default: `data-${prefix}-id`). */
  rowAttrs?(row: ResourceTypes[R]): Record<string, string | number>;
  /** A note under the delete question (what else goes with the row). */
  deleteNote?(row: ResourceTypes[R]): ReactNode;
  hideHeader?: boolean;
}

function matches(values: unknown[], query: string): boolean {
  const q = foldText(query.trim());
  return !q || values.some((v) => typeof v === 'string' && foldText(v).includes(q));
}

export function CatalogueList<R extends ResourceType, F extends { id: number }>(
  props: CatalogueListProps<R, F>,
) {
  const { c, prefix, plural, searchIn, filterRows } = props;
  const { t, rights } = c;
  const [query, setQuery] = useState('');
  const [loadingId, setLoadingId] = useState<number | null>(null);
  const searchable = !!(searchIn || filterRows);
  const { order } = props;
  const rows = useMemo(() => {
    const found = filterRows
      ? filterRows(query)
      : searchIn
        ? c.items.filter((r) => matches(searchIn(r), query))
        : c.items;
    return order ? [...found].sort(order) : found;
  }, [c.items, query, searchIn, filterRows, order]);
  const edit = async (row: ResourceTypes[R]) => {
    const open = props.openForm ?? c.open;
    if (!props.loadForm) return open(props.toForm(row));
    setLoadingId(row.id);
    try {
      const form = await props.loadForm(row);
      if (form) open(form);
    } finally {
      setLoadingId(null);
    }
  };
  const nameOf = props.nameOf ?? ((row: ResourceTypes[R]) => (row as { name?: string }).name ?? '');

  // a row's buttons as offered by the viewer's rights: link objects, edit (spinning while its form loads), delete
  const actions = (row: ResourceTypes[R]) => {
    const buttons = [
      [rights.edit && !!props.onLink, 'link-objects', props.linkLabel, IconLink, () => props.onLink?.(row)],
      [rights.edit, 'edit', t('edit'), IconEdit, () => void edit(row)],
      [rights.delete, 'delete', t('delete'), IconTrash, () => c.setDeleting(row)],
    ] as const;
    return (
      <Group gap={4} justify="flex-end" wrap="nowrap">
        {buttons.map(
          ([shown, action, label, Icon, onClick]) =>
            shown && (
              <ActionIcon
                key={action}
                variant="subtle"
                color={action === 'delete' ? 'red' : undefined}
                aria-label={label}
                loading={action === 'edit' && loadingId === row.id}
                onClick={onClick}
                data-testid={`${prefix}-${action}`}
              >
                <Icon size={16} />
              </ActionIcon>
            ),
        )}
      </Group>
    );
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="nowrap">
        {searchable ? (
          <SearchInput
            style={{ flex: 1 }}
            label={t('search')}
            value={query}
            onSearch={setQuery}
            testId={props.searchTestId ?? `${plural}-search`}
          />
        ) : (
          <Text size="sm" c="dimmed">
            {props.intro}
          </Text>
        )}
        {rights.create &&
          (props.add ?? (
            // never squeezed by the intro beside it ("Novo atributo" read "Nov" at 390 px)
            <Button
              size="xs"
              style={{ flexShrink: 0 }}
              leftSection={<IconPlus size={14} />}
              onClick={() => (props.openForm ?? c.open)(props.newForm())}
              data-testid={`${prefix}-add`}
            >
              {t('add')}
            </Button>
          ))}
      </Group>
      {c.loadError && <Alert color="red">{t('loadError')}</Alert>}
      {c.loaded && rows.length === 0 && (
        <Text size="sm" c="dimmed" data-testid={`${plural}-empty`}>
          {query ? t('noMatch') : (props.emptyText ?? t('empty'))}
        </Text>
      )}
      {rows.length > 0 && (
        <DataTable
          cards
          striped
          fz="sm"
          data-testid={`${plural}-table`}
          rows={rows}
          columns={props.columns}
          rowKey={(r) => r.id}
          rowProps={(r) => ({
            'data-testid': `${prefix}-row`,
            ...(props.rowAttrs?.(r) ?? { [`data-${prefix}-id`]: r.id }),
          })}
          actions={actions}
          hideHeader={props.hideHeader}
        />
      )}
      {c.deleting && (
        <InlineDeleteConfirm
          title={t('deleteTitle')}
          question={t('deleteQuestion', { name: nameOf(c.deleting) })}
          note={props.deleteNote?.(c.deleting)}
          cancelLabel={t('cancel')}
          deleteLabel={t('delete')}
          onCancel={() => c.setDeleting(null)}
          onConfirm={() => void c.confirmDelete()}
          loading={c.removing}
          testId={`${prefix}-delete`}
        />
      )}
    </Stack>
  );
}
