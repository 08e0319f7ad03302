// /monitoring, the monitoring desk (issue #32, docs/monitoring.md): the alarm queue sorted by severity and age with
// a live timer per alarm, new alarms over the socket, a sound repeating while one is open, filters; selecting an
// alarm draws the vehicle's last minutes on the map and opens the action panel (a bottom sheet on a phone). A
// large-type switch for a wall screen; the report tab counts the alarms of the last day or week.
import { useLocalStorage } from '@mantine/hooks';
import { Drawer, Group, Stack, Switch, Tabs, Text } from '@mantine/core';
import { DEFAULT_SOUND, parseRoute, soundUrl, type Alarm } from '@rastro/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/http.ts';
import { useRouteOverlay } from '../../components/routeOverlay.ts';
import { useIsMobile } from '../../components/useIsMobile.ts';
import { useNow } from '../../components/useNow.ts';
import { onAlarmsMessage } from '../../stores/live.ts';
import { usePrefs } from '../../stores/prefs.ts';
import { useSession } from '../../stores/session.ts';
import { AlarmFiltersBar } from './AlarmFiltersBar.tsx';
import { AlarmPanel } from './AlarmPanel.tsx';
import { AlarmQueue } from './AlarmQueue.tsx';
import { AlarmReportTab } from './AlarmReportTab.tsx';
import { AlarmSoundLoop } from './alarmSound.ts';
import { DEFAULT_FILTERS, fetchAlarms, type AlarmFilters } from './api.ts';
import { mergeAlarms, needsAttention, sortQueue } from './queue.ts';

/** Minutes of track drawn for a selected alarm. */
const TRACK_MINUTES = 15;
const LARGE_KEY = 'rastro.monitoring.largeType';
/**
 * Large type for a wall screen: the theme's font sizes 1.3 times larger inside the desk (its texts, buttons and
 * inputs read them), so the text itself is larger and wraps to the screen; CSS `zoom` drew it larger at the same
 * font size and scaled the whole layout, wider than a phone's screen.
 */
const FONT_REM = { xs: 0.75, sm: 0.875, md: 1, lg: 1.125, xl: 1.25 };
const LARGE_TYPE = Object.fromEntries(
  Object.entries(FONT_REM).map(([size, rem]) => [
    `--mantine-font-size-${size}`,
    `calc(${rem * 1.3}rem * var(--mantine-scale))`,
  ]),
) as CSSProperties;

/** Rings while an alarm is open (AlarmSoundLoop), with the test hook. */
function useDeskSound(ringing: boolean) {
  const ns = useSession((s) => s.ns);
  const loop = useRef<AlarmSoundLoop | null>(null);
  useEffect(() => {
    const l = new AlarmSoundLoop({
      play: () => {
        if (typeof Audio === 'undefined') return;
        void new Audio(soundUrl(DEFAULT_SOUND, ns)).play()?.catch(() => undefined);
      },
      muted: () => usePrefs.getState().isMuted,
    });
    loop.current = l;
    window.__rastroAlarmSound = { scheduled: () => l.scheduled, plays: () => l.plays };
    return () => {
      l.stop();
      loop.current = null;
      delete window.__rastroAlarmSound;
    };
  }, [ns]);
  useEffect(() => loop.current?.update(ringing), [ringing]);
}

export function MonitoringPage() {
  const { t } = useTranslation('monitoring');
  const mobile = useIsMobile();
  const now = useNow(1000);
  const overlay = useRouteOverlay();
  const [filters, setFilters] = useState<AlarmFilters>(DEFAULT_FILTERS);
  const [alarms, setAlarms] = useState<Alarm[]>([]);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  // stored as 'true' / 'false', read before the first paint
  const [large, setLarge] = useLocalStorage({
    key: LARGE_KEY,
    defaultValue: false,
    getInitialValueInEffect: false,
  });
  const list = useQuery({ queryKey: ['alarms', filters], queryFn: () => fetchAlarms(filters) });
  const filtersRef = useRef(filters);
  filtersRef.current = filters;

  useEffect(() => {
    if (list.data) setAlarms(sortQueue(list.data));
  }, [list.data]);
  useEffect(
    () =>
      onAlarmsMessage((incoming) =>
        setAlarms((cur) => mergeAlarms(cur, incoming as Alarm[], filtersRef.current)),
      ),
    [],
  );
  useDeskSound(needsAttention(alarms));

  const selected = alarms.find((a) => a.id === selectedId) ?? null;

  const select = async (alarm: Alarm) => {
    setSelectedId(alarm.id);
    const o = overlay.current;
    if (!o) return;
    const to = new Date();
    const from = new Date(to.getTime() - TRACK_MINUTES * 60_000);
    const answer = await api
      .get<unknown>('/reports/route', {
        deviceId: alarm.deviceId,
        from: from.toISOString(),
        to: to.toISOString(),
      })
      .catch(() => null);
    const parsed = parseRoute(answer);
    const mark =
      alarm.latitude !== null && alarm.longitude !== null
        ? [{ kind: 'event' as const, latitude: alarm.latitude, longitude: alarm.longitude }]
        : [];
    if (parsed.ok) overlay.current?.setRoute(parsed.points, mark, true);
    else {
      overlay.current?.setRoute([], mark, false);
      if (mark.length) overlay.current?.flyTo(mark[0].latitude, mark[0].longitude);
    }
  };

  const changed = (a: Alarm) => setAlarms((cur) => mergeAlarms(cur, [a], filtersRef.current));
  // the panel of an alarm the filters no longer show stays open with its last state (kept while rendering)
  const [kept, setKept] = useState<Alarm | null>(null);
  if (selected && selected !== kept) setKept(selected);
  const shown = selected ?? (kept?.id === selectedId ? kept : null);
  const panel = shown && <AlarmPanel alarm={shown} onChanged={(a) => (changed(a), setKept(a))} />;

  return (
    <Stack gap="sm" data-testid="monitoring-page" data-large={large} style={large ? LARGE_TYPE : undefined}>
      <Tabs defaultValue="queue" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="queue" data-testid="monitoring-tab-queue">
            {t('tabs.queue')}
          </Tabs.Tab>
          <Tabs.Tab value="report" data-testid="monitoring-tab-report">
            {t('tabs.report')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="queue" pt="sm">
          <Stack gap="sm">
            <Group justify="space-between" wrap="nowrap">
              <Text size="sm" fw={600} data-testid="alarm-open-count">
                {t('openCount', { count: alarms.filter((a) => a.state === 'open').length })}
              </Text>
              <Switch
                size="sm"
                label={t('largeType')}
                checked={large}
                onChange={(e) => setLarge(e.currentTarget.checked)}
                data-testid="monitoring-large"
              />
            </Group>
            <AlarmFiltersBar filters={filters} onChange={setFilters} />
            {list.isError && <Text c="red">{t('error')}</Text>}
            {!mobile && panel}
            <AlarmQueue
              alarms={alarms}
              now={now}
              selectedId={selectedId}
              onSelect={(a) => void select(a)}
              large={large}
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="report" pt="sm">
          <AlarmReportTab />
        </Tabs.Panel>
      </Tabs>
      {mobile && (
        <Drawer
          opened={!!shown}
          onClose={() => setSelectedId(null)}
          position="bottom"
          size="85%"
          title={t('panelTitle')}
          data-testid="alarm-sheet"
          styles={{ content: large ? LARGE_TYPE : undefined }}
          closeButtonProps={{ 'aria-label': t('common:close') }}
        >
          {panel}
        </Drawer>
      )}
    </Stack>
  );
}
