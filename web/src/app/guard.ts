// The navigation guard of SPEC §2 as a pure async function over injected effects, so tests drive it without a
// browser. The router calls it on every navigation (RootLayout) and follows its verdict.
import { homeOf, viewerRole, type PermissionContext } from '@rastro/domain';
import { isAuthFailure } from '../api/http.ts';
import { matchRoute, routeAllowed } from './routeMeta.ts';
import type { GuardEffects } from '../shell/guardEffects.ts';

export type { GuardEffects };

export type GuardVerdict = { kind: 'pass' } | { kind: 'redirect'; to: string };

export interface GuardTarget {
  pathname: string;
  search?: string;
}

/**
 * Where a page without a session goes: a share guest back to its link (which signs it in again, or says the link
 * expired), a QR driver's route to the driver's sign-in, anyone else to the sign-in form, returning here after.
 */
function loginTarget(target: GuardTarget, share?: string | null): string {
  if (share) return `/share/${encodeURIComponent(share)}`;
  const path = `${target.pathname}${target.search ?? ''}`;
  const driver = matchRoute(target.pathname)?.meta.access === 'driver';
  return `${driver ? '/motorista' : '/login'}?to=${encodeURIComponent(path)}`;
}

export async function runGuard(target: GuardTarget, fx: GuardEffects): Promise<GuardVerdict> {
  const match = matchRoute(target.pathname);
  if (!match) return { kind: 'redirect', to: '/home' };
  const { meta } = match;
  if (meta.path === '/maintenance') return { kind: 'pass' };

  let user = fx.currentUser();
  const isPublic = meta.access === 'public';

  // Server info first; a server that cannot answer means maintenance.
  if (!fx.hasServer()) {
    try {
      await fx.loadServer();
    } catch {
      return { kind: 'redirect', to: '/maintenance' };
    }
  }

  let fresh = false;
  if (!isPublic && !user) {
    try {
      user = await fx.checkSession();
      if (!user) return { kind: 'redirect', to: loginTarget(target, fx.shareToken?.()) };
      fresh = true;
    } catch (err) {
      if (isAuthFailure(err)) return { kind: 'redirect', to: loginTarget(target, fx.shareToken?.()) };
      return { kind: 'redirect', to: '/maintenance' };
    }
  }

  if (isPublic) return { kind: 'pass' };
  // the access table (issue #28): a screen the viewer may not use sends it to its home (the QR driver's view, the
  // guest's vehicle, or the map) before any data is asked for it, and the page is never rendered for it meanwhile
  // (RootLayout asks the same table)
  const viewer: PermissionContext = {
    user,
    ns: fx.ns?.(),
    ...(fx.viewer?.() ?? { server: null, isPlus: false }),
  };
  const allowed = routeAllowed(meta, viewer);
  const guest = viewerRole(viewer) === 'guest';
  // map-wait mode: the devices of a signed-in page the viewer may open (not the driver's view); a refused guest's
  // too (its home is its vehicle); a refused member's home (the map) asks for them on its own navigation
  const wantsDevices = allowed ? meta.access !== 'driver' : guest;
  if (wantsDevices && (fresh || fx.needsDevices?.())) {
    try {
      await fx.loadDevices();
    } catch (err) {
      if (isAuthFailure(err)) return { kind: 'redirect', to: loginTarget(target, fx.shareToken?.()) };
      return { kind: 'redirect', to: '/maintenance' };
    }
  }
  if (!allowed) return { kind: 'redirect', to: homeOf(viewer, guest ? (fx.deviceIds?.() ?? []) : []) };
  return { kind: 'pass' };
}
