// Every route of SPEC §2 with its meta (title, shown, backBtn, mobileBottom, allowExpand), access kind and the
// screen the access table (@rastro/domain access.ts) decides on. Pure data, so the guard and its tests use it
// without React.
import { allows, type PermissionContext, type Screen } from '@rastro/domain';

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
  /**
   * The screen of a signed-in route: the access table says who may open it (issue #28); anyone else is sent to
   * their home (homeOf) and the page is never rendered for them. Null for public routes.
   */
  screen: Screen | null;
}

const bare = (
  path: string,
  title: string,
  access: RouteAccess,
  extra: Partial<Omit<RouteMeta, 'path' | 'title' | 'access'>> = {},
): RouteMeta => ({
  path,
  title,
  access,
  screen: null,
  shown: false,
  backBtn: null,
  mobileBottom: false,
  allowExpand: false,
  ...extra,
});

/** A signed-in route: its page shown in the panel, opened to whom the access table opens `screen`. */
const auth = (
  path: string,
  title: string,
  screen: Screen,
  extra: Partial<Omit<RouteMeta, 'path' | 'title' | 'access' | 'screen'>> = {},
): RouteMeta => bare(path, title, 'auth', { screen, shown: true, ...extra });

/** One report of /reports: back to the list, widened on demand. */
const report = (path: string, title: string, screen: Screen = 'reports') =>
  auth(path, title, screen, { backBtn: '/reports', allowExpand: true });

export const ROUTES: readonly RouteMeta[] = [
  bare('/share/:token', 'auth:share.title', 'public'),
  bare('/login', 'auth:login.title', 'public'),
  bare('/register', 'auth:register.title', 'public'),
  bare('/login/recover/:token', 'auth:recover.title', 'public'),
  bare('/motorista', 'auth:driver.title', 'public'),
  bare('/maintenance', 'auth:maintenance.title', 'public'),
  bare('/qr-driver', 'auth:qrDriver.title', 'driver', { screen: 'qrDriver' }),
  bare('/qr-driver/scan/:id', 'auth:qrDriver.scanTitle', 'driver', { screen: 'qrDriver' }),
  auth('/home', 'shell:routes.home', 'home', { shown: false }),
  auth('/devices', 'shell:routes.devices', 'devices', { allowExpand: true }),
  auth('/devices/:deviceId', 'shell:routes.deviceDetail', 'deviceDetail', {
    backBtn: '/devices',
    mobileBottom: true,
  }),
  auth('/computed', 'shell:routes.computed', 'computed', { allowExpand: true }),
  auth('/autolink', 'shell:routes.autolink', 'autolink'),
  auth('/autolink/:id', 'shell:routes.autolinkDetail', 'autolink', { backBtn: '/autolink' }),
  auth('/notifications', 'shell:routes.notifications', 'notifications', { allowExpand: true }),
  auth('/history', 'shell:routes.history', 'history', { mobileBottom: true }),
  auth('/dashboard', 'shell:routes.dashboard', 'dashboard', { allowExpand: true }),
  auth('/reports', 'shell:routes.reports', 'reports', { allowExpand: true }),
  report('/reports/resume', 'shell:routes.reportsResume'),
  report('/reports/travels', 'shell:routes.reportsTravels'),
  report('/reports/stops', 'shell:routes.reportsStops'),
  report('/reports/events', 'shell:routes.reportsEvents', 'eventsReport'),
  report('/reports/history', 'shell:routes.reportsHistory'),
  auth('/geofence', 'shell:routes.geofence', 'geofences'),
  auth('/users', 'shell:routes.users', 'users', { allowExpand: true }),
  auth('/groups', 'shell:routes.groups', 'groups'),
  auth('/commands', 'shell:routes.commands', 'commands'),
  auth('/server-health', 'shell:routes.serverHealth', 'serverHealth', { allowExpand: true }),
  auth('/asistente-demo', 'shell:routes.assistant', 'assistant', { allowExpand: true }),
  auth('/monitoring', 'shell:routes.monitoring', 'monitoring', { allowExpand: true }),
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
  return !!meta?.allowExpand && new URLSearchParams(search).get('expand') === 'true';
}

/** Whether the viewer may open the route (the access table's screen; public routes are open to everyone). */
export function routeAllowed(meta: RouteMeta | null | undefined, ctx: PermissionContext): boolean {
  if (!meta || meta.access === 'public') return true;
  return meta.screen !== null && allows(ctx, `screen.${meta.screen}`);
}
