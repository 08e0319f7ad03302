// What ties the live map's controller to the stores, outside React renders: the filtered devices and positions
// pushed on every change, the camera asked to centre or follow, the session re-checked, and the test hook.
import type * as maplibregl from 'maplibre-gl';
import type { User } from '@rastro/domain';
import { api, HttpError } from '../../api/http.ts';
import { selectFiltered, setSessionRecheck, useLive } from '../../stores/live.ts';
import { usePrefs } from '../../stores/prefs.ts';
import { mapStarted, markFirstMapDrawn } from '../../stores/firstMap.ts';
import { firstPositions, firstPositionsIn } from '../../api/socket.ts';
import { useSession } from '../../stores/session.ts';
import type { LiveMapController, MapInputs } from './controller.ts';
import { SRC_DEVICES } from './layers.ts';
import { holdFirstFrame } from './firstFrameHold.ts';

/** The map applies a typed search after this pause (ms); the list follows at once. */
const QUERY_MAP_DELAY_MS = 150;

/** What the controller draws, read from the stores now. */
export function controllerInput(): MapInputs {
  const l = useLive.getState();
  const p = usePrefs.getState();
  return {
    devices: selectFiltered(l.devices, l.positions, l.filters, p.query, l.anchored),
    positions: l.positions,
    mapPref: p.mapPref,
    selectedId: l.selectedId,
    trail: l.trail,
  };
}

/**
 * Pushes the stores into the controller now and on every change; `centre` is called when positions come (the
 * first view waits for them). Returns the unsubscribe.
 */
export function feedController(controller: LiveMapController, centre: () => void): () => void {
  const push = () => controller.update(controllerInput());
  push();
  const unsubLive = useLive.subscribe((l, prev) => {
    if (
      l.devices !== prev.devices ||
      l.positions !== prev.positions ||
      l.filters !== prev.filters ||
      l.selectedId !== prev.selectedId ||
      l.trail !== prev.trail ||
      l.anchored !== prev.anchored
    )
      push();
    if (l.positions !== prev.positions) centre();
    if (l.routeMode) return;
    // centre on a device when asked (list click, detail page)
    if (l.focusSeq !== prev.focusSeq && l.selectedId !== null) {
      const pos = l.positions[l.selectedId];
      if (pos) controller.flyTo(pos);
    }
    // trail mode follows the device
    if (l.trailId !== null && l.positions !== prev.positions) {
      const pos = l.positions[l.trailId];
      if (pos && pos !== prev.positions[l.trailId]) controller.follow(pos);
    }
  });
  // typing in the search box: the map follows once typing pauses, so a keystroke only updates the input
  let queryTimer: ReturnType<typeof setTimeout> | undefined;
  const unsubPrefs = usePrefs.subscribe((p, prev) => {
    if (p.mapPref !== prev.mapPref) push();
    else if (p.query !== prev.query) {
      clearTimeout(queryTimer);
      queryTimer = setTimeout(push, QUERY_MAP_DELAY_MS);
    }
  });
  return () => {
    clearTimeout(queryTimer);
    unsubLive();
    unsubPrefs();
  };
}

/**
 * Whether the map can draw its first frame with the vehicles: our layers in, the socket's first positions applied
 * and the worker's device tiles in (all of them, or the markers of some already placed: live updates keep the source
 * reloading, so on a moving fleet it is seldom all loaded at one frame).
 */
function vehiclesReady(map: maplibregl.Map, controller: LiveMapController): boolean {
  if (!controller.styled || !firstPositionsIn() || !map.getSource(SRC_DEVICES)) return false;
  if (map.isSourceLoaded(SRC_DEVICES)) return true;
  const layers = ['rastro-devices-symbol', 'rastro-clusters'].filter((id) => map.getLayer(id));
  return map.queryRenderedFeatures({ layers }).length > 0;
}

/**
 * The map's first frame: nothing is drawn until it can hold the vehicles (firstFrameHold.ts); once that frame is
 * drawn the texts are added and the shell (stores/firstMap.ts) shows the panel's page, so that React's render of
 * the device list never lands before the markers. A map that fails before (its style, a tile) shows the page at
 * once. Returns the undo.
 */
export function watchFirstFrame(map: maplibregl.Map, controller: LiveMapController): () => void {
  mapStarted();
  const drawn = () => {
    // in the frame, so that the map is not idle (a test's "settled") before its texts are in
    controller.showLabels();
    // the list's render in a task of its own, once the browser has taken the frame
    setTimeout(markFirstMapDrawn, 0);
  };
  const unhold = holdFirstFrame(map, () => vehiclesReady(map, controller), drawn);
  const failed = () => {
    map.off('error', failed);
    markFirstMapDrawn();
  };
  map.on('error', failed);
  // an empty fleet changes nothing on the map when its positions come: a frame is asked for them
  void firstPositions().then(() => map.triggerRepaint());
  return () => {
    unhold();
    map.off('error', failed);
  };
}

/** SPEC §4: a device losing its qrDriverId re-checks the session (a QR driver checked out elsewhere). */
export function watchSession(): void {
  setSessionRecheck(() => {
    api
      .get<User>('/session')
      .then((u) => useSession.getState().setUser(u))
      .catch((err) => {
        if (err instanceof HttpError && (err.status === 401 || err.status === 404)) window.location.reload();
      });
  });
}

/** The read-only test and benchmark hook, window.__rastroMap. */
export function testHook(map: maplibregl.Map, controller: LiveMapController, styleId: () => string) {
  return {
    map,
    controller,
    /** Whether the map has drawn its first frame with the vehicles (firstFrameHold.ts). */
    firstFrameDrawn: () => controller.labels,
    /** Device features in the source (devices passing the filters and having a position). */
    featureCount: () => controller.featureCount,
    /** Ids of the drawn devices. */
    featureIds: () => [...(controller as unknown as { features: Map<number, unknown> }).features.keys()],
    /** Drawn [lon, lat] of a device (mid-glide included). */
    positionOf: (id: number) => controller.drawnPosition(id),
    /** Screen point of a device marker, for clicks in tests. */
    screenPointOf: (id: number) => {
      const xy = controller.drawnPosition(id);
      if (!xy) return undefined;
      const p = map.project(xy);
      const r = map.getCanvas().getBoundingClientRect();
      return { x: r.left + p.x, y: r.top + p.y };
    },
    styleId,
  };
}
