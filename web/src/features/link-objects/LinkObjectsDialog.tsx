// The `linkObjects` global dialog (SPEC §2; Traccar's connections): link a device, a group or a user to geofences,
// notifications, drivers, calendars (users), computed attributes, saved commands and maintenances. Each kind lists
// the objects the caller sees with a checkbox telling whether it is linked (GET /api/{kind}?{owner}Id=…); a change
// is POST or DELETE /api/permissions at once (the server checks both sides). Loading gives up after
// LINK_LOAD_TIMEOUT_MS with the SPEC §8 "related-objects timeout" message.
// Opened with openDialog('linkObjects', { owner: 'device' | 'group' | 'user', id, name }).
import { Alert, Checkbox, Loader, Modal, ScrollArea, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  foldText,
  LINK_LOAD_TIMEOUT_MS,
  LINK_PATHS,
  linkableKinds,
  linkBody,
  linkLabel,
  type LinkOwner,
  type LinkProperty,
} from '@rastro/domain';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { api, serverMessage } from '../../api/http.ts';
import type { DialogComponentProps } from '../../shell/dialogs.ts';

const propsSchema = z.object({
  owner: z.enum(['device', 'group', 'user']),
  id: z.number().int().positive(),
  name: z.string().optional(),
});

type Obj = { id: number } & Record<string, unknown>;

/** A list that fails with the timeout message when the server does not answer in time. */
function withTimeout<T>(p: Promise<T>, message: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), LINK_LOAD_TIMEOUT_MS);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

function KindPanel({ owner, id, kind }: { owner: LinkOwner; id: number; kind: LinkProperty }) {
  const { t } = useTranslation('linkObjects');
  const { t: tc } = useTranslation('common');
  const qc = useQueryClient();
  const [search, setSearch] = useState('');
  const key = ['linkObjects', owner, id, kind] as const;
  const data = useQuery({
    queryKey: key,
    queryFn: () =>
      withTimeout(
        Promise.all([
          api.get<Obj[]>(LINK_PATHS[kind]),
          api.get<Obj[]>(LINK_PATHS[kind], { [`${owner}Id`]: id }),
        ]),
        tc('linkObjects.timeout'),
      ),
  });

  // a tick links, an untick unlinks; a refusal is shown until the next change
  const toggle = useMutation({
    mutationFn: async ({ objectId, linked }: { objectId: number; linked: boolean }) => {
      const body = linkBody(owner, id, kind, objectId);
      if (linked) await api.request('DELETE', '/permissions', { body });
      else await api.post('/permissions', body);
      await qc.invalidateQueries({ queryKey: key });
    },
  });
  const error = toggle.isError ? (serverMessage(toggle.error) ?? t('error')) : null;

  if (data.isPending) return <Loader size="sm" m="md" />;
  if (data.isError)
    return (
      <Alert color="red" m="sm" data-testid="link-load-error">
        {serverMessage(data.error) ?? data.error.message}
      </Alert>
    );
  const [all, linkedList] = data.data;
  const linked = new Set(linkedList.map((o) => o.id));
  const q = foldText(search);
  const shown = all.filter((o) => !q || foldText(linkLabel(o)).includes(q));

  return (
    <Stack gap="xs" p="xs" data-testid={`link-panel-${kind}`}>
      <TextInput
        size="xs"
        placeholder={t('search')}
        aria-label={t('search')}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
      />
      {error && (
        <Alert color="red" data-testid="link-error">
          {error}
        </Alert>
      )}
      {all.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('empty')}
        </Text>
      ) : (
        <ScrollArea.Autosize mah={360}>
          <Stack gap={6}>
            {shown.map((o) => (
              <Checkbox
                key={o.id}
                label={linkLabel(o)}
                checked={linked.has(o.id)}
                disabled={toggle.isPending && toggle.variables.objectId === o.id}
                onChange={() => toggle.mutate({ objectId: o.id, linked: linked.has(o.id) })}
                data-testid={`link-${kind}-${o.id}`}
              />
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

export function LinkObjectsDialog({ props, onClose }: DialogComponentProps) {
  const { t } = useTranslation('linkObjects');
  const parsed = propsSchema.safeParse(props);
  const kinds = parsed.success ? linkableKinds(parsed.data.owner) : [];
  const [tab, setTab] = useState<string | null>(kinds[0] ?? null);
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={t('title', { name: parsed.success ? (parsed.data.name ?? '') : '' })}
      data-testid="link-objects-dialog"
    >
      {!parsed.success ? (
        <Alert color="red">{t('error')}</Alert>
      ) : (
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            {kinds.map((k) => (
              <Tabs.Tab key={k} value={k} data-testid={`link-tab-${k}`}>
                {t(`kinds.${k}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {kinds.map((k) => (
            <Tabs.Panel key={k} value={k}>
              <KindPanel owner={parsed.data.owner} id={parsed.data.id} kind={k} />
            </Tabs.Panel>
          ))}
        </Tabs>
      )}
    </Modal>
  );
}
