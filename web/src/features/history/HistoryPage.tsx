// /history (SPEC §2): pick a device and a period, the route is drawn on the shared map coloured by speed with
// direction arrows, start / end / stop / event marks; playback (play, pause, speed, scrubber) moves a vehicle along
// it interpolated by time; the virtualised table of points follows; export to Excel, GPX, KML, CSV. Entry point
// from the device page: /history?deviceId=<id> (loads today at once). Route mode is on while the page is open.
// The route is read in pages (routePages.ts, issue #31): the first part is drawn at once, the rest appended as it
// arrives; playback, scrubber and table work on what has arrived and extend with it; chapters, stops, events and
// export once the whole route is there.
import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconRoute } from '@tabler/icons-react';
import {
  formatDistance,
  formatSpeed,
  chapterRange,
  historyMarkOptions,
  nearestPointIndex,
  routeSpeedScale,
  summariseRoute,
} from '@rastro/domain';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnits } from '../../i18n/useUnits.ts';
import { useSearchParams } from 'wouter';
import {
  defaultPeriod,
  PeriodPicker,
  resolvePeriod,
  type PeriodValue,
} from '../../components/PeriodPicker.tsx';
import { useLiveDeviceOptions } from '../../components/useResourceOptions.ts';
import { useTimeFormat, useTimeZone } from '../../components/timeZone.ts';
import { useRouteOverlay } from '../../components/routeOverlay.ts';
import { intlLocale } from '../../i18n/index.ts';
import { useLive } from '../../stores/live.ts';
import { useSession } from '../../stores/session.ts';
import { ChapterList } from './ChapterList.tsx';
import { ExportMenu } from './ExportMenu.tsx';
import { PointsTable } from './PointsTable.tsx';
import { usePlayback } from './usePlayback.ts';
import { PlaybackControls } from './PlaybackControls.tsx';
import { useRouteLoad } from './useRouteLoad.ts';

export function HistoryPage() {
  const { t } = useTranslation('history');
  const [params, setParams] = useSearchParams();
  const deviceId = Number(params.get('deviceId')) || null;
  const devices = useLive((s) => s.devices);
  const server = useSession((s) => s.server);
  const ns = useSession((s) => s.ns);
  const units = useUnits();
  const tz = useTimeZone();
  const { stops: showStops, events: showEvents } = historyMarkOptions(server?.attributes, ns);
  const show = useMemo(() => ({ stops: showStops, events: showEvents }), [showStops, showEvents]);
  const locale = intlLocale();
  const timeFmt = useTimeFormat(locale);
  const formatTime = useCallback((ms: number) => timeFmt.format(ms), [timeFmt]);

  const [period, setPeriod] = useState<PeriodValue>(() => defaultPeriod('today'));
  const overlay = useRouteOverlay();
  // the colour scale of a route: the device's speed limit, else a round top in the person's unit
  const speedScale = useCallback(
    (id: number) => routeSpeedScale(units.speedUnit, useLive.getState().devices[id]?.attributes?.speedLimit),
    [units.speedUnit],
  );
  const { state, chapters, eventTimes, chapter, setChapter, load } = useRouteLoad(
    tz,
    overlay,
    show,
    speedScale,
  );

  const autoplay = useRef(false);

  const allPoints = state.status === 'ok' ? state.points : null;
  // a chosen chapter (issue #14) narrows playback, table and summary to its slice of the route
  const points = useMemo(() => {
    const c = chapter === null ? undefined : chapters[chapter];
    const range = allPoints && c ? chapterRange(allPoints, c) : null;
    return allPoints && range ? allPoints.slice(range[0], range[1] + 1) : allPoints;
  }, [allPoints, chapters, chapter]);
  const playback = usePlayback(points, (f) => overlay.current?.setVehicle(f));
  const summary = useMemo(() => (points ? summariseRoute(points) : null), [points]);
  // events as marks on the timeline, at the playback time of their nearest point
  const eventMarks = useMemo(() => {
    if (!points?.length) return [];
    const first = points[0].time;
    const last = points[points.length - 1].time;
    return eventTimes
      .filter((at) => at >= first && at <= last)
      .map((at) => ({ value: playback.timeline[nearestPointIndex(points, at)] ?? 0 }));
  }, [eventTimes, points, playback.timeline]);
  const { play } = playback;
  useEffect(() => {
    if (!autoplay.current || !points?.length) return;
    autoplay.current = false;
    play();
  }, [points, play]);

  const chooseChapter = useCallback(
    (i: number | null) => {
      setChapter(i);
      const c = i === null ? undefined : chapters[i];
      const range = allPoints && c ? chapterRange(allPoints, c) : null;
      if (allPoints) overlay.current?.fit(range ? allPoints.slice(range[0], range[1] + 1) : allPoints);
      autoplay.current = i !== null && !!range;
    },
    [chapters, allPoints, overlay, setChapter],
  );

  const deviceOptions = useLiveDeviceOptions();
  const deviceName = deviceId ? (devices[deviceId]?.name ?? String(deviceId)) : '';

  // entry from the device page: /history?deviceId=<id> loads the chosen period at once
  const autoLoaded = useRef(false);
  useEffect(() => {
    if (autoLoaded.current || !deviceId) return;
    autoLoaded.current = true;
    void load(deviceId, period);
  }, [deviceId, period, load]);

  const { seekIndex } = playback;
  // stable, so the memoised table does not re-render on every playback frame
  const pick = useCallback(
    (i: number) => {
      seekIndex(i);
      if (points) overlay.current?.flyTo(points[i].latitude, points[i].longitude, 15);
    },
    [seekIndex, points, overlay],
  );

  const frame = playback.frame;
  const current = frame && points ? points[frame.index] : null;

  return (
    <Stack gap="sm" data-testid="history-page">
      <Select
        label={t('device')}
        placeholder={t('devicePlaceholder')}
        data={deviceOptions}
        value={deviceId ? String(deviceId) : null}
        searchable
        onChange={(v) => {
          const next = new URLSearchParams(params);
          if (v) next.set('deviceId', v);
          else next.delete('deviceId');
          setParams(next, { replace: true });
        }}
        data-testid="history-device"
        comboboxProps={{ withinPortal: true }}
      />
      <PeriodPicker value={period} onChange={setPeriod} testId="history-period" />
      <Group gap="xs">
        <Button
          leftSection={<IconRoute size={16} />}
          onClick={() => void load(deviceId, period)}
          disabled={!deviceId || !resolvePeriod(period, tz)}
          loading={state.status === 'loading' || (state.status === 'ok' && !state.complete)}
          data-testid="history-load"
        >
          {t('show')}
        </Button>
        <ExportMenu
          points={points}
          deviceName={deviceName}
          disabled={!points || (state.status === 'ok' && !state.complete)}
        />
      </Group>

      {state.status === 'error' && (
        <Alert
          color={state.error === 'route.noData' ? 'yellow' : 'red'}
          data-testid="history-error"
          data-error={state.error}
        >
          {t(`common:${state.error}`)}
        </Alert>
      )}

      {points && summary && (
        <>
          <Text size="sm" data-testid="history-summary" data-count={summary.count}>
            {t('summary', {
              count: summary.count,
              distance: formatDistance(summary.distance, units.distanceUnit, locale),
              maxSpeed: formatSpeed(summary.maxSpeed, units.speedUnit, locale),
            })}
          </Text>
          <PlaybackControls
            playback={playback}
            eventMarks={eventMarks}
            address={current?.address}
            units={units}
            locale={locale}
            formatTime={formatTime}
          />
          <ChapterList
            chapters={chapters}
            selected={chapter}
            onSelect={chooseChapter}
            units={units}
            locale={locale}
            formatTime={formatTime}
          />
          <PointsTable
            points={points}
            active={frame?.index ?? -1}
            follow={playback.playing}
            onPick={pick}
            unit={units.speedUnit}
            locale={locale}
            formatTime={formatTime}
          />
        </>
      )}
      {state.status === 'idle' && (
        <Text size="sm" c="dimmed">
          {t('description')}
        </Text>
      )}
    </Stack>
  );
}
