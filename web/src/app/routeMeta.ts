// Every route of SPEC §2 with its meta (title, shown, backBtn, mobileBottom, allowExpand) and access kind.
// Pure data, so the guard and its tests use it without React.
import { isQrDriver, type User } from '@rastro/domain';

export type RouteAccess = 'public' | 'driver' | 'auth';

export interface RouteMeta {
  /** Route pattern (':name' segments, as the router, wouter, reads them). */
  path: string;
  access: RouteAccess;
  /** i18n key (namespace:key) of the panel title. */
  title: string;
  /** The side panel is shown (false: the map alone, e.g. /home). */
  shown: boolean;
  /** Where the panel's back button goes; null = the previous page. */
  backBtn: string | null;
  /** On mobile the panel is a bottom sheet. */
  mobileBottom: boolean;
  /** The `expand` query parameter may widen the panel. */
  allowExpand: boolean;
  /** Only administrators (others are sent to /home). */
  adminOnly?: boolean;
  /** Only this role (others are sent to /home): 'qrDriver' = a user with `{ns}.isQrDriverId` (issue #28). */
  onlyRole?: 'qrDriver';
}

const auth = (
  path: string,
  title: string,
  extra: Partial<Omit<RouteMeta, 'path' | 'title' | 'access'>> = {},
): RouteMeta => ({
  path,
  title,
  access: 'auth',
  shown: true,
  backBtn: null,
  mobileBottom: false,
  allowExpand: false,
  ...extra,
});

const bare = (
  path: string,
  title: string,
  access: RouteAccess,
  extra: Partial<Omit<RouteMeta, 'path' | 'title' | 'access'>> = {},
): RouteMeta => ({
  path,
  title,
  access,
  shown: false,
  backBtn: null,
  mobileBottom: false,
  allowExpand: false,
  ...extra,
});

export const ROUTES: readonly RouteMeta[] = [
  bare('/share/:token', 'auth:share.title', 'public'),
  bare('/login', 'auth:login.title', 'public'),
  bare('/register', 'auth:register.title', 'public'),
  bare('/login/recover/:token', 'auth:recover.title', 'public'),
  bare('/motorista', 'auth:driver.title', 'public'),
  bare('/maintenance', 'auth:maintenance.title', 'public'),
  bare('/qr-driver', 'auth:qrDriver.title', 'driver', { onlyRole: 'qrDriver' }),
  bare('/qr-driver/scan/:id', 'auth:qrDriver.scanTitle', 'driver', { onlyRole: 'qrDriver' }),
  auth('/home', 'shell:routes.home', { shown: false }),
  auth('/devices', 'shell:routes.devices', { allowExpand: true }),
  auth('/devices/:deviceId', 'shell:routes.deviceDetail', { backBtn: '/devices', mobileBottom: true }),
  auth('/computed', 'shell:routes.computed', { allowExpand: true }),
  auth('/autolink', 'shell:routes.autolink'),
  auth('/autolink/:id', 'shell:routes.autolinkDetail', { backBtn: '/autolink' }),
  auth('/notifications', 'shell:routes.notifications', { allowExpand: true }),
  auth('/history', 'shell:routes.history', { mobileBottom: true }),
  auth('/dashboard', 'shell:routes.dashboard', { allowExpand: true }),
  auth('/reports', 'shell:routes.reports', { allowExpand: true }),
  auth('/reports/resume', 'shell:routes.reportsResume', { backBtn: '/reports', allowExpand: true }),
  auth('/reports/travels', 'shell:routes.reportsTravels', { backBtn: '/reports', allowExpand: true }),
  auth('/reports/stops', 'shell:routes.reportsStops', { backBtn: '/reports', allowExpand: true }),
  auth('/reports/events', 'shell:routes.reportsEvents', { backBtn: '/reports', allowExpand: true }),
  auth('/reports/history', 'shell:routes.reportsHistory', { backBtn: '/reports', allowExpand: true }),
  auth('/geofence', 'shell:routes.geofence'),
  auth('/users', 'shell:routes.users', { allowExpand: true }),
  auth('/groups', 'shell:routes.groups'),
  auth('/commands', 'shell:routes.commands'),
  auth('/server-health', 'shell:routes.serverHealth', { adminOnly: true, allowExpand: true }),
  auth('/asistente-demo', 'shell:routes.assistant', { allowExpand: true }),
];

function matches(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) params[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return null;
  }
  return params;
}

/** The route a pathname belongs to, or null (unknown paths redirect to /home). */
export function matchRoute(pathname: string): { meta: RouteMeta; params: Record<string, string> } | null {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const meta of ROUTES) {
    const params = matches(meta.path, clean);
    if (params) return { meta, params };
  }
  return null;
}

/** `?expand=true|false` widens the panel on routes that allow it. */
export function isExpanded(meta: RouteMeta | null | undefined, search: string): boolean {
  if (!meta?.allowExpand) return false;
  return new URLSearchParams(search).get('expand') === 'true';
}

/**
 * Whether the signed-in user's role may open a route of `onlyRole` (the guard sends others to /home, and the
 * layout never renders the page for them meanwhile).
 */
export function roleAllows(meta: RouteMeta | null | undefined, user: User | null, ns?: string): boolean {
  if (meta?.onlyRole === 'qrDriver') return isQrDriver(user, ns);
  return true;
}
