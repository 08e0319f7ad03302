// The full-screen live map, rendered once by the shell behind every panel. It owns the MapLibre instance and the
// live socket, and feeds the map from the stores through LiveMapController (outside React renders).
import 'maplibre-gl/dist/maplibre-gl.css';
import './map.css';
import * as maplibregl from 'maplibre-gl';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { Paper, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from '../../components/navigation.ts';
import {
  allows,
  anchoredDeviceIds,
  initialView,
  isQrDriver,
  isShared,
  overlayPadding,
  qrDeviceIdOf,
  type Geofence,
  type Position,
} from '@rastro/domain';
import { firstPositions, firstPositionsIn, openSocket } from '../../api/socket.ts';
import { useResourceList } from '../../api/resources.ts';
import { setLiveMap, useLive } from '../../stores/live.ts';
import { usePrefs } from '../../stores/prefs.ts';
import { useSession } from '../../stores/session.ts';
import { LiveMapController } from './controller.ts';
import {
  controllerInput,
  feedController,
  testHook,
  watchFirstFrame,
  watchSession,
} from './feedController.ts';
import { mapStyles, resolveStyle } from './styles.ts';
import { MapControls } from './MapControls.tsx';
import { mapLocale } from './mapLocale.ts';
import { isMapDrawing } from '../../components/mapDraw.ts';
import { attachMapDraw } from '../../components/mapDrawLayer.ts';
import { prefetchIcons } from '../../api/mapIcons.ts';
import { adoptEarlyMap, liveMapOptions } from './earlyMap.ts';
import { useCan } from '../../components/useCan.ts';

declare global {
  interface Window {
    /** Test and benchmark hook (read-only use): feedController.ts testHook. */
    __rastroMap?: ReturnType<typeof testHook>;
  }
}

// the marker icons start downloading with this module, not after the style has loaded
const icons = prefetchIcons();

/** Whether a record has no keys (without listing them: the live store holds up to 10,000 devices). */
function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

/**
 * The positions the first view shows: all the user can see; a QR driver on a vehicle, that vehicle's (once it
 * has one).
 */
function firstViewPositions(): Position[] {
  const { user, ns } = useSession.getState();
  const { positions } = useLive.getState();
  const driving = isQrDriver(user, ns) ? qrDeviceIdOf(user?.attributes, ns) : null;
  const own = driving !== null ? positions[driving] : undefined;
  return own ? [own] : Object.values(positions);
}

export function MapView() {
  const { t } = useTranslation('map');
  const container = useRef<HTMLDivElement>(null);
  const ctrl = useRef<LiveMapController | null>(null);
  const navigate = useNavigate();
  const ns = useSession((s) => s.ns);
  const server = useSession((s) => s.server);
  const user = useSession((s) => s.user);
  const guest = isShared(user) || isQrDriver(user, ns);
  const emptyFleet = useLive((s) => s.devicesLoaded && isEmpty(s.devices));
  const mapStyle = usePrefs((s) => s.mapStyle);
  const styles = useMemo(() => mapStyles(server, ns), [server, ns]);
  const style = resolveStyle(styles, mapStyle);
  const styleRef = useRef(style.id);
  const statusRef = useRef<(s: string) => string>((s) => s);
  statusRef.current = (s) => t(`status.${s}`);

  // asked only of whom the server answers (a QR driver or a share guest is refused the list)
  const geofencesAllowed = useCan('bit.geofences.view');
  const geofences = useResourceList('geofences', undefined, { enabled: geofencesAllowed, staleTime: 60_000 });

  // create the map once, in the commit that mounts it rather than after the page's paint (a layout effect): its
  // WebGL context and first programs then reach the GPU process before the shell's first frame instead of
  // queueing behind it, and the shell and the map's first render share one frame (session 20: headless Chromium
  // on SwiftShader spent 400–700 ms of the GPU process on each frame, and the context waited 600–1,150 ms)
  useLayoutEffect(() => {
    const el = container.current;
    if (!el) return;
    // The first view (issue #28, domain initialView): fitted to every position the user can see once the socket's
    // first message (every latest position) is in, kept clear of the side panel or bottom sheet; without positions
    // the user's or the server's centre. Usually the positions are in before the map exists (the first load waits
    // for them, shell/sessionActions.ts) and the view is the map's own starting camera; otherwise the map starts
    // on the centre and jumps once when they come. Later updates never move the camera (trail mode aside).
    const firstView = () => {
      const s = useSession.getState();
      const rect = el.getBoundingClientRect();
      const panel = document.querySelector('[data-testid="panel"]')?.getBoundingClientRect();
      return initialView(s.user, s.server, firstPositionsIn() ? firstViewPositions() : [], {
        width: rect.width,
        height: rect.height,
        padding: overlayPadding(rect, panel),
      });
    };
    const first = firstView();
    // route mode (history opened first) keeps the camera for the route; the first view waits until it ends
    let centred = firstPositionsIn() && !useLive.getState().routeMode;
    const center: [number, number] = [first.center.longitude, first.center.latitude];
    const locale = mapLocale(t);
    // the map made while the person typed on the sign-in page (earlyMap.ts), moved to the first view; else a new one
    const early = adoptEarlyMap(el, style.id, locale);
    early?.jumpTo({ center, zoom: first.zoom });
    const map = early ?? new maplibregl.Map(liveMapOptions(el, style.style, center, first.zoom, locale));
    map.addControl(new maplibregl.AttributionControl({ compact: true }));
    map.addControl(new maplibregl.NavigationControl({ visualizePitch: false }), 'top-right');
    map.addControl(new maplibregl.ScaleControl({}), 'bottom-left');
    const controller = new LiveMapController(map, {
      ns,
      icons,
      statusText: (s) => statusRef.current(s),
      onSelect: (id) => {
        if (isMapDrawing()) return; // a click while drawing a shape belongs to the drawing
        useLive.getState().select(id);
        // the detail only for whom the access table opens it (not the QR driver nor the share guest, issue #28)
        const v = useSession.getState();
        if (allows({ user: v.user, server: v.server, isPlus: v.isPlus, ns: v.ns }, 'screen.deviceDetail'))
          navigate(`/devices/${id}`);
      },
    });
    ctrl.current = controller;
    setLiveMap(map);
    const detachDraw = attachMapDraw(map);
    window.__rastroMap = testHook(map, controller, () => styleRef.current);

    const centre = () => {
      if (centred || useLive.getState().routeMode || !firstPositionsIn()) return;
      centred = true;
      const v = firstView();
      map.jumpTo({ center: [v.center.longitude, v.center.latitude], zoom: v.zoom });
    };
    void firstPositions().then(centre);

    // feed the controller from the stores, outside React renders
    const unfeed = feedController(controller, centre);
    // nothing drawn until the first frame can hold the vehicles; their texts and the panel's page come after it
    const unwatchFirst = watchFirstFrame(map, controller);
    watchSession();
    void openSocket();
    return () => {
      unfeed();
      unwatchFirst();
      detachDraw();
      controller.destroy();
      setLiveMap(null);
      delete window.__rastroMap;
      ctrl.current = null;
      map.remove();
    };
    // the map is created once; style changes are applied below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // style switch (persisted in prefs mapStyle)
  useEffect(() => {
    if (styleRef.current === style.id) return;
    styleRef.current = style.id;
    ctrl.current?.setStyle(style.style);
  }, [style]);

  // geofences: drawn on the map, anchors tell which devices are anchored (filters and sort)
  useEffect(() => {
    const list: Geofence[] = geofences.data ?? [];
    ctrl.current?.setGeofences(list);
    useLive.getState().setAnchored(anchoredDeviceIds(list));
  }, [geofences.data]);

  // labels follow the language
  useEffect(() => {
    ctrl.current?.update(controllerInput(), true);
  }, [t]);

  return (
    <div
      style={{ position: 'absolute', inset: 0 }}
      className={isQrDriver(user, ns) ? 'rastro-map--driver' : undefined}
      data-testid="map-view"
      data-user={user?.id ?? ''}
    >
      <div ref={container} style={{ position: 'absolute', inset: 0 }} />
      <MapControls styles={styles} current={style.id} />
      {emptyFleet && (
        <Paper
          shadow="sm"
          px="md"
          py="xs"
          radius="md"
          withBorder
          style={{
            position: 'absolute',
            top: 12,
            left: '50%',
            transform: 'translateX(-50%)',
            zIndex: 2,
            maxWidth: 'calc(100% - 140px)',
          }}
        >
          <Text size="sm" ta="center" data-testid="map-empty-hint">
            {t(guest ? 'emptyGuest' : 'emptyFleet')}
          </Text>
        </Paper>
      )}
    </div>
  );
}
