// The first of the entry's modules to run (main.tsx imports it before React and the app): a signed-in page's
// requests to the server leave before the rest of the entry is evaluated, and the guard takes them over
// (shell/sessionActions.ts startSignedInRequests).
import { viewerRole } from '@rastro/domain';
import { matchRoute, routeAllowed } from './app/routeMeta.ts';
import { startSignedInRequests } from './shell/sessionActions.ts';

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
