// The `server` dialog (SPEC §3 "Server settings", administrators only): tabs general, map, units, permissions and
// limits, integrations, over GET /api/server; saving PUTs the whole Server (Traccar replaces it) and reloads the
// session's server info, so units, map and limits change across the app at once.
import { Stack, Tabs } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { serverToSettings, settingsToServer, type Server, type ServerSettingsValues } from '@rastro/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DialogComponentProps } from '../../shell/dialogs.ts';
import { api } from '../../api/http.ts';
import { fetchServer } from '../../api/resources.ts';
import { useSession } from '../../stores/session.ts';
import { SettingsPanels } from './SettingsPanels.tsx';
import { TAB_FIELDS, useSettingsFields } from './settingsFields.tsx';
import { DialogFrame } from '../../components/DialogFrame.tsx';
import { SaveCancel } from '../../components/SaveCancel.tsx';

export function ServerSettingsDialog({ onClose }: DialogComponentProps) {
  const { t } = useTranslation('serverSettings');
  const ns = useSession((s) => s.ns);
  const admin = useSession((s) => !!s.user?.administrator);
  const [server, setServer] = useState<Server | null>(null);
  const [values, setValues] = useState<ServerSettingsValues | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [loadError, setLoadError] = useState(false);
  const [saving, setSaving] = useState(false);
  const [tab, setTab] = useState<string | null>('general');
  const timezones = useQuery({
    queryKey: ['server', 'timezones'],
    queryFn: () => api.get<string[]>('/server/timezones'),
    staleTime: Infinity,
    enabled: admin,
  });

  useEffect(() => {
    let live = true;
    fetchServer()
      .then((s) => {
        if (!live) return;
        setServer(s);
        setValues(serverToSettings(s, ns));
      })
      .catch((err: unknown) => {
        console.warn('server settings not loaded', err);
        if (live) setLoadError(true);
      });
    return () => {
      live = false;
    };
  }, [ns]);

  const { text, flag, choice, unitChoice } = useSettingsFields(values, setValues, errors);

  const submit = async () => {
    if (!server || !values) return;
    const r = settingsToServer(server, values, ns);
    if (!r.ok) {
      setErrors(r.errors);
      const first = Object.keys(r.errors)[0];
      const owner = Object.entries(TAB_FIELDS).find(([, keys]) => keys.includes(first))?.[0];
      if (owner) setTab(owner);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      await api.put<Server>('/server', r.server);
      await fetchServer();
      notifications.show({ color: 'green', message: t('saved') });
      onClose();
    } catch (e) {
      console.warn('server settings not saved', e);
      notifications.show({ color: 'red', message: t('saveError') });
    } finally {
      setSaving(false);
    }
  };

  return (
    <DialogFrame
      onClose={onClose}
      size="xl"
      title={t('title')}
      testId="server-dialog"
      denied={!admin && t('adminOnly')}
      error={loadError && t('loadError')}
      loading={!values}
    >
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

          <SettingsPanels fields={{ text, flag, choice, unitChoice }} timezones={timezones.data} />
        </Tabs>
        <SaveCancel
          cancel={t('cancel')}
          save={t('save')}
          onCancel={onClose}
          onSave={() => void submit()}
          loading={saving}
          saveTestId="server-save"
        />
      </Stack>
    </DialogFrame>
  );
}
