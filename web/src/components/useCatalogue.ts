// The state of one catalogue manager (issue #33): its list, the viewer's rights, the form being edited with its
// field errors, saving (PUT when id > 0 else POST) with the server's answer translated, and the row waiting for
// its delete confirmation. The managers (drivers, calendars, maintenance, groups, …) add only what is theirs.
import { notifications } from '@mantine/notifications';
import { canDeleteById, type CatalogueRights, type PermissionArea } from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { serverDetail } from '../api/http.ts';
import {
  useDeleteResource,
  useResourceList,
  useSaveResource,
  type ResourceType,
  type ResourceTypes,
} from '../api/resources.ts';
import { useCatalogueRights } from './useCan.ts';

type FieldErrors = Record<string, string>;
export type Parsed<V> = { ok: true; value: V } | { ok: false; errors: FieldErrors };
type Body<R extends ResourceType> = Partial<ResourceTypes[R]> & { id?: number };

export interface CatalogueOptions<R extends ResourceType, F> {
  resource: R;
  /** i18n namespace holding saved, deleted, saveError, deleteError (and the screen's own texts). */
  ns: string;
  /** The texts' key prefix inside `ns` (scheduled reports: `scheduled`). */
  keyPrefix?: string;
  area: PermissionArea;
  /** The form checked and turned into the body to save (a domain parse*Form), or its field errors; none when the
   * manager's own dialog saves (computed attributes save their links too). */
  parse?(form: F, items: ResourceTypes[R][]): Parsed<Body<R>>;
  /** Rights other than the area's bits (computed attributes: administrators only). */
  rights?: CatalogueRights;
  /** A save failure as field errors and/or the message shown; default: saveError with the server's text. */
  saveError?(err: unknown, t: TFunction): { errors?: FieldErrors; message?: string };
  /** The message of a delete failure; default: deleteError with the server's text. */
  deleteError?(err: unknown, t: TFunction): string;
}

export interface Catalogue<R extends ResourceType, F extends { id: number }> {
  t: TFunction;
  items: ResourceTypes[R][];
  loaded: boolean;
  loadError: boolean;
  rights: CatalogueRights;
  editing: F | null;
  setEditing(form: F | null): void;
  /** Merges `patch` into the form being edited. */
  edit(patch: Partial<F>): void;
  errors: FieldErrors;
  setErrors(errors: FieldErrors): void;
  /** The translated error of a field, or undefined. */
  err(key: string): string | undefined;
  open(form: F): void;
  submit(): Promise<void>;
  saving: boolean;
  deleting: ResourceTypes[R] | null;
  setDeleting(item: ResourceTypes[R] | null): void;
  confirmDelete(): Promise<void>;
  removing: boolean;
}

export function useCatalogue<R extends ResourceType, F extends { id: number }>(
  options: CatalogueOptions<R, F>,
): Catalogue<R, F> {
  const { t } = useTranslation(options.ns, { keyPrefix: options.keyPrefix });
  const list = useResourceList(options.resource);
  const save = useSaveResource(options.resource);
  const remove = useDeleteResource(options.resource);
  const areaRights = useCatalogueRights(options.area);
  const rights = options.rights ?? areaRights;
  const [editing, setEditing] = useState<F | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [deleting, setDeleting] = useState<ResourceTypes[R] | null>(null);
  const items = list.data ?? [];

  const open = (form: F) => {
    setErrors({});
    setEditing(form);
  };

  const submit = async () => {
    if (!editing || !options.parse) return;
    const r = options.parse(editing, items);
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
      console.warn(`${options.resource} not saved`, err);
      const mapped = options.saveError?.(err, t) ?? {};
      if (mapped.errors) setErrors(mapped.errors);
      const message = mapped.message ?? (mapped.errors ? undefined : `${t('saveError')}${serverDetail(err)}`);
      if (message) notifications.show({ color: 'red', message });
    }
  };

  const confirmDelete = async () => {
    if (!deleting || !canDeleteById(deleting.id)) return;
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', message: t('deleted') });
    } catch (err) {
      console.warn(`${options.resource} not deleted`, err);
      const message = options.deleteError?.(err, t) ?? `${t('deleteError')}${serverDetail(err)}`;
      notifications.show({ color: 'red', message });
    }
    setDeleting(null);
  };

  return {
    t,
    items,
    loaded: !!list.data,
    loadError: list.isError,
    rights,
    editing,
    setEditing,
    edit: (patch) => editing && setEditing({ ...editing, ...patch }),
    errors,
    setErrors,
    err: (key) => (errors[key] ? t(errors[key]) : undefined),
    open,
    submit,
    saving: save.isPending,
    deleting,
    setDeleting,
    confirmDelete,
    removing: remove.isPending,
  };
}
