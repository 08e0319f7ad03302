// /commands: saved commands (SPEC §2 "saved commands", §3): list, create, edit and delete. Each command has a
// type, a description, the text-channel flag and the attributes of its type. Save = PUT when id > 0 else POST.
import { ActionIcon, Alert, Button, Group, Modal, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { canSeeMenu, mayWrite, traccarName, type Command } from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDeleteResource, useResourceList, useSaveResource } from '../../api/resources.ts';
import { useSession } from '../../stores/session.ts';
import { CommandFields } from './CommandFields.tsx';
import { commandToForm, emptyCommandForm, parseCommandForm, type CommandFormValues } from './commandForm.ts';
import { refusalMessage } from '../../api/http.ts';

export function CommandsPage() {
  const { t, i18n } = useTranslation('commands');
  const list = useResourceList('commands');
  const save = useSaveResource('commands');
  const remove = useDeleteResource('commands');
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const isPlus = useSession((s) => s.isPlus);
  const ns = useSession((s) => s.ns);
  const editable = mayWrite(user, server, 'command') && canSeeMenu({ user, server, isPlus, ns }, 'commands');
  const [editing, setEditing] = useState<CommandFormValues | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [deleting, setDeleting] = useState<Command | null>(null);

  const submit = async () => {
    if (!editing) return;
    const r = parseCommandForm(editing, { requireDescription: true });
    if (!r.ok) {
      setErrors(r.errors);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync(r.command);
      notifications.show({ color: 'green', message: t('saved') });
      setEditing(null);
    } catch (err) {
      console.warn('command not saved', err);
      notifications.show({ color: 'red', message: refusalMessage(err) ?? t('saveError') });
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync(deleting.id);
      notifications.show({ color: 'green', message: t('deleted') });
    } catch (err) {
      console.warn('command not deleted', err);
      notifications.show({ color: 'red', message: refusalMessage(err) ?? t('deleteError') });
    }
    setDeleting(null);
  };

  return (
    <Stack gap="sm" data-testid="commands-page">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {t('description')}
        </Text>
        {editable && (
          <Button
            size="xs"
            leftSection={<IconPlus size={14} />}
            onClick={() => {
              setErrors({});
              setEditing(emptyCommandForm());
            }}
            data-testid="command-add"
          >
            {t('add')}
          </Button>
        )}
      </Group>
      {list.isError && <Alert color="red">{t('loadError')}</Alert>}
      {list.data && list.data.length === 0 && (
        <Text size="sm" c="dimmed" data-testid="commands-empty">
          {t('empty')}
        </Text>
      )}
      {!!list.data?.length && (
        <Table striped fz="sm" data-testid="commands-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('fields.description')}</Table.Th>
              <Table.Th>{t('fields.type')}</Table.Th>
              <Table.Th>{t('fields.textChannel')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.map((c) => (
              <Table.Tr key={c.id} data-testid="command-row" data-command-id={c.id}>
                <Table.Td>{c.description || '—'}</Table.Td>
                <Table.Td>{traccarName('commandTypes', c.type, i18n.language)}</Table.Td>
                <Table.Td>{c.textChannel ? t('yes') : t('no')}</Table.Td>
                <Table.Td>
                  {editable && (
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('edit')}
                        onClick={() => {
                          setErrors({});
                          setEditing(commandToForm(c));
                        }}
                        data-testid="command-edit"
                      >
                        <IconEdit size={16} />
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('delete')}
                        onClick={() => setDeleting(c)}
                        data-testid="command-delete"
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

      {editing && (
        <Modal
          opened
          onClose={() => setEditing(null)}
          title={editing.id > 0 ? t('editTitle') : t('addTitle')}
          data-testid="command-form"
        >
          <Stack>
            <CommandFields value={editing} onChange={setEditing} errors={errors} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                {t('cancel')}
              </Button>
              <Button onClick={() => void submit()} loading={save.isPending} data-testid="command-save">
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
          data-testid="command-delete-confirm"
        >
          <Stack>
            <Text size="sm">{t('deleteQuestion', { name: deleting.description || deleting.type })}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(null)}>
                {t('cancel')}
              </Button>
              <Button
                color="red"
                onClick={() => void confirmDelete()}
                loading={remove.isPending}
                data-testid="command-delete-yes"
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
