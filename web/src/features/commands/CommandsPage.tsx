// /commands: saved commands (SPEC §2 "saved commands", §3): list, create, edit and delete. Each command has a
// type, a description, the text-channel flag and the attributes of its type. Save = PUT when id > 0 else POST.
// The list, form frame and delete are the catalogue scaffold (components/Catalogue*).
import { Stack } from '@mantine/core';
import { mayWrite, traccarName, type Command } from '@rastro/domain';
import { useTranslation } from 'react-i18next';
import { CatalogueForm } from '../../components/CatalogueDialog.tsx';
import { CatalogueList } from '../../components/CatalogueList.tsx';
import type { DataColumn } from '../../components/DataTable.tsx';
import { useCan } from '../../components/useCan.ts';
import { useCatalogue } from '../../components/useCatalogue.ts';
import { useSession } from '../../stores/session.ts';
import { CommandFields } from './CommandFields.tsx';
import { commandToForm, emptyCommandForm, parseCommandForm, type CommandFormValues } from './commandForm.ts';

export function CommandsPage() {
  const user = useSession((s) => s.user);
  const server = useSession((s) => s.server);
  const editable = useCan('screen.commands') && mayWrite(user, server, 'command');
  const c = useCatalogue<'commands', CommandFormValues>({
    resource: 'commands',
    ns: 'commands',
    area: 'commands',
    rights: { create: editable, edit: editable, delete: editable },
    parse: (form) => {
      const r = parseCommandForm(form, { requireDescription: true });
      return r.ok ? { ok: true, value: r.command } : r;
    },
  });
  const { t } = c;
  const { i18n } = useTranslation('commands');
  const columns: DataColumn<Command>[] = [
    {
      key: 'description',
      header: t('fields.description'),
      cell: (cmd) => cmd.description || '—',
      sortBy: (cmd) => cmd.description ?? '',
    },
    {
      key: 'type',
      header: t('fields.type'),
      cell: (cmd) => traccarName('commandTypes', cmd.type, i18n.language),
    },
    {
      key: 'textChannel',
      header: t('fields.textChannel'),
      cell: (cmd) => (cmd.textChannel ? t('yes') : t('no')),
    },
  ];

  return (
    <Stack gap="sm" data-testid="commands-page">
      <CatalogueList
        c={c}
        prefix="command"
        plural="commands"
        columns={columns}
        intro={t('description')}
        newForm={emptyCommandForm}
        toForm={commandToForm}
        nameOf={(cmd) => cmd.description || cmd.type}
      />
      {c.editing && (
        <CatalogueForm c={c} prefix="command" testId="command-form" modal>
          <CommandFields value={c.editing} onChange={c.setEditing} errors={c.errors} />
        </CatalogueForm>
      )}
    </Stack>
  );
}
