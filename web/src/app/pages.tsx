// Route pages, each a lazy import of its feature's index.ts, so a page only loads its own code (and texts).
import { feature, partOf, type FeatureName } from './featureTexts.ts';
import { loadShellTexts } from '../i18n/index.ts';
import type { ComponentType } from 'react';
import { LoadingBar } from '../components/LoadingBar.tsx';
import { lazyPage } from './lazyPage.tsx';
import type { ReportKind } from '../features/reports/index.ts';

/** A route page: the component `name` of a feature's module, the loading bar until its code is there. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as lazyPage's own
function screen<K extends string, T extends ComponentType<any>>(
  texts: FeatureName,
  load: () => Promise<Record<K, T>>,
  name: K,
) {
  return lazyPage(partOf(texts, load, name), <LoadingBar />);
}

/** The map, started by router.tsx preloadSignedIn before the shell renders it. */
export const MapView = lazyPage(() =>
  feature('map', import('../features/map/index.ts')).then((m) => ({ default: m.MapView })),
);
const auth = () => import('../features/auth/index.ts');
const devices = () => import('../features/devices/index.ts');
const dashboard = () => import('../features/dashboard/index.ts');
const geofences = () => import('../features/geofences/index.ts');
const notifications = () => import('../features/notifications/index.ts');
const health = () => import('../features/health/index.ts');
const assistant = () => import('../features/assistant/index.ts');
const monitoring = () => import('../features/monitoring/index.ts');

const ReportsPage = screen('reports', () => import('../features/reports/index.ts'), 'ReportsPage');
const AutolinkPage = screen('autolink', () => import('../features/autolink/index.ts'), 'AutolinkPage');

type Page = ComponentType<{ kind?: ReportKind }> & { preload(): void };

/** The shell's panel pages: path (as in routeMeta.ts), page, and the report kind of a report page. */
export const shellPages: [path: string, page: Page, kind?: ReportKind][] = [
  ['/devices', screen('devices', devices, 'DevicesPage')],
  ['/devices/:deviceId', screen('devices', devices, 'DeviceDetailPage')],
  ['/computed', screen('computed', () => import('../features/computed/index.ts'), 'ComputedPage')],
  ['/autolink', AutolinkPage],
  ['/autolink/:id', AutolinkPage],
  ['/notifications', screen('notifications', notifications, 'NotificationsPage')],
  ['/history', screen('history', () => import('../features/history/index.ts'), 'HistoryPage')],
  ['/dashboard', screen('dashboard', dashboard, 'DashboardPage')],
  ['/reports', ReportsPage],
  ['/reports/resume', ReportsPage, 'resume'],
  ['/reports/travels', ReportsPage, 'travels'],
  ['/reports/stops', ReportsPage, 'stops'],
  ['/reports/events', ReportsPage, 'events'],
  ['/reports/history', ReportsPage, 'history'],
  ['/geofence', screen('geofences', geofences, 'GeofencesPage')],
  ['/users', screen('users', () => import('../features/users/index.ts'), 'UsersPage')],
  ['/groups', screen('groups', () => import('../features/groups/index.ts'), 'GroupsPage')],
  ['/commands', screen('commands', () => import('../features/commands/index.ts'), 'CommandsPage')],
  ['/server-health', screen('health', health, 'ServerHealthPage')],
  ['/asistente-demo', screen('assistant', assistant, 'AssistantPage')],
  ['/monitoring', screen('monitoring', monitoring, 'MonitoringPage')],
];
export const LoginPage = screen('auth', auth, 'LoginPage');
export const RegisterPage = screen('auth', auth, 'RegisterPage');
export const RecoverPage = screen('auth', auth, 'RecoverPage');
export const DriverLoginPage = screen('auth', auth, 'DriverLoginPage');
export const SharePage = screen('auth', auth, 'SharePage');
export const MaintenancePage = screen('auth', auth, 'MaintenancePage');
// Its own chunk: the sign-in pages do not carry the driver's check-in screen (nor its texts).
export const QrDriverPage = lazyPage(
  () =>
    Promise.all([import('../features/auth/QrDriverPage.tsx'), loadShellTexts()]).then(([m]) => ({
      default: m.QrDriverPage,
    })),
  <LoadingBar />,
);
export const NotifyHost = lazyPage(
  partOf('notify', () => import('../features/notify/index.ts'), 'NotifyHost'),
);
