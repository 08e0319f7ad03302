// The `server` dialog (SPEC §3 "Server settings", administrators only): tabs general, map, units, permissions and
// limits, integrations, over GET /api/server; saving PUTs the whole Server (Traccar replaces it) and reloads the
// session's server info, so units, map and limits change across the app at once.
import { Stack, Tabs } from '@mantine/core';
import { serverToSettings, settingsToServer, type Server, type ServerSettingsValues } from '@rastro/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { api } from '../../api/http.ts';
import { fetchServer } from '../../api/resources.ts';
import { useSession } from '../../stores/session.ts';
import { SettingsPanels, TAB_FIELDS } from './SettingsPanels.tsx';
import { DialogFrame } from '../../components/DialogFrame.tsx';
import { SaveCancel } from '../../components/SaveCancel.tsx';
import { useParsedForm } from '../../components/useParsedForm.ts';

export function ServerSettingsDialog({ onClose }: DialogComponentProps) {
  const { t } = useTranslation('serverSettings');
  const admin = useSession((s) => !!s.user?.administrator);
  const server = useQuery({
    queryKey: ['server-settings'],
    queryFn: () =>
      fetchServer().catch((err: unknown) => {
        console.warn('server settings not loaded', err);
        throw err;
      }),
    gcTime: 0,
  });
  return (
    <DialogFrame
      onClose={onClose}
      size="xl"
      title={t('title')}
      testId="server-dialog"
      denied={!admin && t('adminOnly')}
      error={server.isError && t('loadError')}
      loading={!server.data}
    >
      {server.data && <SettingsForm server={server.data} onClose={onClose} />}
    </DialogFrame>
  );
}

function SettingsForm({ server, onClose }: { server: Server; onClose(): void }) {
  const { t } = useTranslation('serverSettings');
  const ns = useSession((s) => s.ns);
  const [tab, setTab] = useState<string | null>('general');
  const timezones = useQuery({
    queryKey: ['server', 'timezones'],
    queryFn: () => api.get<string[]>('/server/timezones'),
    staleTime: Infinity,
  });
  const { form, setForm, errors, busy, submit } = useParsedForm({
    ns: 'serverSettings',
    initial: serverToSettings(server, ns),
    parse: (values: ServerSettingsValues) => {
      const r = settingsToServer(server, values, ns);
      if (r.ok) return { ok: true, value: r.server };
      // the tab of the first wrong field
      const first = Object.keys(r.errors)[0];
      const owner = Object.entries(TAB_FIELDS).find(([, keys]) => keys.includes(first))?.[0];
      if (owner) setTab(owner);
      return r;
    },
    save: async (body) => {
      await api.put<Server>('/server', body);
      await fetchServer();
    },
    failure: (_e, tr) => tr('saveError'),
    what: 'server settings',
    onClose,
  });

  return (
    <Stack>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          {Object.keys(TAB_FIELDS).map((k) => (
            <Tabs.Tab
              key={k}
              value={k}
              c={TAB_FIELDS[k].some((f) => errors[f]) ? 'red' : undefined}
              data-testid={`server-tab-${k}`}
            >
              {t(`tabs.${k}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <SettingsPanels values={form} setValues={setForm} errors={errors} timezones={timezones.data} />
      </Tabs>
      <SaveCancel onCancel={onClose} onSave={() => void submit()} loading={busy} saveTestId="server-save" />
    </Stack>
  );
}
