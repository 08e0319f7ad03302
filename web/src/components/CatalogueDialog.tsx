// The frame of a catalogue manager opened from the user menu (issue #33): one modal titled by what it shows (the
// list, a new item, an item being edited), refused with the translated "denied" text when the access table closes
// the menu entry; and the edit form's frame with its cancel and save buttons.
import { Alert, Modal, Stack } from '@mantine/core';
import type { UserMenuEntry } from '@rastro/domain';
import type { ReactNode } from 'react';
import type { ResourceType } from '../api/resources.ts';
import { useCan } from './useCan.ts';
import type { Catalogue } from './useCatalogue.ts';
import { SaveCancel } from './SaveCancel.tsx';

export function CatalogueDialog<R extends ResourceType, F extends { id: number }>({
  c,
  menu,
  onClose,
  testId,
  size,
  children,
}: {
  c: Catalogue<R, F>;
  menu: UserMenuEntry;
  onClose(): void;
  testId: string;
  /** Width of the list, then of the form. */
  size: [number, number];
  children: ReactNode;
}) {
  const allowed = useCan(`menu.${menu}`);
  const { t, editing } = c;
  const title = editing ? (editing.id > 0 ? t('editTitle') : t('addTitle')) : t('title');
  return (
    <Modal opened onClose={onClose} size={editing ? size[1] : size[0]} title={title} data-testid={testId}>
      {allowed ? children : <Alert color="red">{t('denied')}</Alert>}
    </Modal>
  );
}

/** The form being edited, closed by cancel (`${prefix}-cancel`, `-save`); `modal`: in its own add/edit modal. */
export function CatalogueForm<R extends ResourceType, F extends { id: number }>({
  c,
  prefix,
  testId,
  modal,
  children,
}: {
  c: Catalogue<R, F>;
  prefix: string;
  testId: string;
  modal?: boolean;
  children: ReactNode;
}) {
  const form = (
    <Stack gap="sm" data-testid={testId}>
      {children}
      <SaveCancel
        onCancel={() => c.setEditing(null)}
        onSave={() => void c.submit()}
        loading={c.saving}
        cancelTestId={`${prefix}-cancel`}
        saveTestId={`${prefix}-save`}
      />
    </Stack>
  );
  if (!modal) return form;
  const title = (c.editing?.id ?? 0) > 0 ? c.t('editTitle') : c.t('addTitle');
  return (
    <Modal opened onClose={() => c.setEditing(null)} title={title}>
      {form}
    </Modal>
  );
}
