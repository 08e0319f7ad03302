// The first of the entry's modules to run (main.tsx imports it before React and the app): a signed-in page's
// requests to the server leave before the rest of the entry is evaluated, and the guard takes them over
// (shell/sessionActions.ts startSignedInRequests).
import { viewerRole } from '@rastro/domain';
import { matchRoute, routeAllowed } from './app/routeMeta.ts';
import { startSignedInRequests } from './shell/sessionActions.ts';
import mapWorkerUrl from 'maplibre-gl/dist/maplibre-gl-worker.mjs?worker&url';

const meta = matchRoute(location.pathname)?.meta;
/** Access kind of the page being opened (undefined: an unknown path, which the guard sends to /home). */
export const access = meta?.access;
if (access === 'auth' || access === 'driver') {
  void startSignedInRequests({
    devices: access === 'auth',
    // a route the viewer may not open gets no data (the guard sends it home); the guest's home needs its devices
    opens: (viewer) => !meta || routeAllowed(meta, viewer) || viewerRole(viewer) === 'guest',
  });
}

// MapLibre's worker (it cuts the map's sources into tiles), started with the signed-in page's requests: compiling
// and running its 0.8 MB module took 0.4–0.7 s on its own thread once the map had asked for it, and the vehicles'
// tiles, hence the map's first frame, waited for it (issue #31, session 24). The map takes it over when it starts
// (features/map/earlyWorker.ts); a page that never shows a map leaves it idle.
let mapWorker: Worker | undefined;
if (access === 'auth' && typeof Worker !== 'undefined') {
  try {
    mapWorker = new Worker(mapWorkerUrl, { type: 'module' });
  } catch {
    mapWorker = undefined; // MapLibre then starts its own
  }
}

/** The worker started above, once (then undefined). */
export function takeMapWorker(): Worker | undefined {
  const w = mapWorker;
  mapWorker = undefined;
  return w;
}
