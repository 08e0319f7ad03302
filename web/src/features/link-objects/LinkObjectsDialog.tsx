// The `linkObjects` global dialog (SPEC §2; Traccar's connections): link a device, a group or a user to geofences,
// notifications, drivers, calendars (users), computed attributes, saved commands and maintenances. Each kind lists
// the objects the caller sees with a checkbox telling whether it is linked (GET /api/{kind}?{owner}Id=…); a change
// is POST or DELETE /api/permissions at once (the server checks both sides). Loading gives up after
// LINK_LOAD_TIMEOUT_MS with the SPEC §8 "related-objects timeout" message.
// Opened with openDialog('linkObjects', { owner: 'device' | 'group' | 'user', id, name }).
import { Checkbox, Loader, Modal, ScrollArea, Stack, Tabs, Text } from '@mantine/core';
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
import { api, type Query } from '../../api/http.ts';
import { SearchInput } from '../../components/SearchInput.tsx';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { RequestError } from '../../components/RequestError.tsx';

type Obj = { id: number } & Record<string, unknown>;

function KindPanel({ owner, id, kind }: { owner: LinkOwner; id: number; kind: LinkProperty }) {
  const { t } = useTranslation('linkObjects');
  const qc = useQueryClient();
  const [search, setSearch] = useState('');
  const key = ['linkObjects', owner, id, kind] as const;
  const data = useQuery({
    queryKey: key,
    // both lists give up together after LINK_LOAD_TIMEOUT_MS, with the timeout message
    queryFn: async () => {
      const signal = AbortSignal.timeout(LINK_LOAD_TIMEOUT_MS);
      const list = (query?: Query) => api.request<Obj[]>('GET', LINK_PATHS[kind], { query, signal });
      try {
        return (await Promise.all([list(), list({ [`${owner}Id`]: id })])).map((r) => r.data);
      } catch (e) {
        throw signal.aborted ? new Error(t('common:linkObjects.timeout')) : e;
      }
    },
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

  if (data.isPending) return <Loader size="sm" m="md" />;
  if (data.isError)
    return <RequestError error={data.error} fallback={data.error.message} m="sm" testId="link-load-error" />;
  const [all, linkedList] = data.data;
  const linked = new Set(linkedList.map((o) => o.id));
  const q = foldText(search);
  const shown = all.filter((o) => !q || foldText(linkLabel(o)).includes(q));

  return (
    <Stack gap="xs" p="xs" data-testid={`link-panel-${kind}`}>
      <SearchInput label={t('search')} value={search} onSearch={setSearch} />
      <RequestError error={toggle.error} fallback={t('error')} testId="link-error" />
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

export function LinkObjectsDialog({ props, onClose }: DialogComponentProps<'linkObjects'>) {
  const { t } = useTranslation('linkObjects');
  const kinds = linkableKinds(props.owner);
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={t('title', { name: props.name ?? '' })}
      data-testid="link-objects-dialog"
    >
      <Tabs defaultValue={kinds[0]} keepMounted={false}>
        <Tabs.List>
          {kinds.map((k) => (
            <Tabs.Tab key={k} value={k} data-testid={`link-tab-${k}`}>
              {t(`kinds.${k}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {kinds.map((k) => (
          <Tabs.Panel key={k} value={k}>
            <KindPanel owner={props.owner} id={props.id} kind={k} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Modal>
  );
}
