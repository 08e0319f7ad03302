// /computed: computed attributes (SPEC §3, menu bit 64). Everyone who reaches the page sees the attributes linked to
// them; only administrators create, edit, test, link and delete (CONTRACT: computed attributes are admin-only).
import { ActionIcon, Alert, Badge, Button, Code, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import {
  computedToForm,
  emptyComputedForm,
  type ComputedAttribute,
  type ComputedFormValues,
} from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteResource, useResourceList } from '../../api/resources.ts';
import { useSession } from '../../stores/session.ts';
import { ComputedDialog } from './ComputedDialog.tsx';
import { refusalMessage } from '../../api/http.ts';

export function ComputedPage() {
  const { t } = useTranslation('computed');
  const list = useResourceList('attributes/computed');
  const remove = useDeleteResource('attributes/computed');
  const admin = useSession((s) => !!s.user?.administrator);
  const [editing, setEditing] = useState<ComputedFormValues | null>(null);
  const [deleting, setDeleting] = useState<ComputedAttribute | null>(null);

  const confirmDelete = async () => {
    if (!deleting || deleting.id <= 0) return;
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', message: t('deleted') });
    } catch (err) {
      console.warn('computed attribute not deleted', err);
      notifications.show({ color: 'red', message: refusalMessage(err) ?? t('deleteError') });
    }
    setDeleting(null);
  };

  const rows = [...(list.data ?? [])].sort(
    (a, b) => b.priority - a.priority || a.description.localeCompare(b.description),
  );

  return (
    <Stack gap="sm" data-testid="computed-page">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Text size="sm" c="dimmed">
          {t('description')}
        </Text>
        {admin && (
          <Button
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => setEditing(emptyComputedForm())}
            data-testid="computed-add"
            style={{ flexShrink: 0 }}
          >
            {t('add')}
          </Button>
        )}
      </Group>
      {list.isError && <Alert color="red">{t('loadError')}</Alert>}
      {list.data && list.data.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="computed-empty">
          {t('empty')}
        </Text>
      )}
      {rows.length > 0 && (
        <Table striped fz="sm" data-testid="computed-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('fields.description')}</Table.Th>
              <Table.Th>{t('fields.attribute')}</Table.Th>
              <Table.Th>{t('fields.type')}</Table.Th>
              <Table.Th ta="right">{t('fields.priority')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((a) => (
              <Table.Tr key={a.id} data-testid="computed-row" data-attribute={a.attribute}>
                <Table.Td>
                  <Text size="sm">{a.description || '—'}</Text>
                  <Code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>{a.expression}</Code>
                </Table.Td>
                <Table.Td>
                  <Code>{a.attribute}</Code>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" size="sm">
                    {t(`types.${a.type}`, { defaultValue: a.type })}
                  </Badge>
                </Table.Td>
                <Table.Td ta="right">{a.priority}</Table.Td>
                <Table.Td>
                  {admin && (
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('edit')}
                        onClick={() => setEditing(computedToForm(a))}
                        data-testid="computed-edit"
                      >
                        <IconEdit size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('delete')}
                        onClick={() => setDeleting(a)}
                        data-testid="computed-delete"
                      >
                        <IconTrash size={16} />
                      </ActionIcon>
                    </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      {editing && <ComputedDialog initial={editing} onClose={() => setEditing(null)} />}

      {deleting && (
        <Modal
          opened
          onClose={() => setDeleting(null)}
          title={t('deleteTitle')}
          data-testid="computed-delete-confirm"
        >
          <Stack>
            <Text size="sm">{t('deleteQuestion', { name: deleting.description || deleting.attribute })}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>
                {t('cancel')}
              </Button>
              <Button
                color="red"
                onClick={() => void confirmDelete()}
                loading={remove.isPending}
                data-testid="computed-delete-yes"
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
