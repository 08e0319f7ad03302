// Route pages, each a lazy import of its feature's index.ts, so a page only loads its own code (and texts).
import { feature } from './featureTexts.ts';
import { loadShellTexts } from '../i18n/index.ts';
import type { ComponentType } from 'react';
import { LoadingBar } from '../components/LoadingBar.tsx';
import { lazyPage } from './lazyPage.tsx';

/** A route page: the loading bar until its code is there. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as lazyPage's own
function screen<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  return lazyPage(load, <LoadingBar />);
}

/** The map, started by router.tsx preloadSignedIn before the shell renders it. */
export const MapView = lazyPage(() =>
  feature('map', import('../features/map/index.ts')).then((m) => ({ default: m.MapView })),
);
export const DevicesPage = screen(() =>
  feature('devices', import('../features/devices/index.ts')).then((m) => ({ default: m.DevicesPage })),
);
export const DeviceDetailPage = screen(() =>
  feature('devices', import('../features/devices/index.ts')).then((m) => ({ default: m.DeviceDetailPage })),
);
export const HistoryPage = screen(() =>
  feature('history', import('../features/history/index.ts')).then((m) => ({ default: m.HistoryPage })),
);
export const DashboardPage = screen(() =>
  feature('dashboard', import('../features/dashboard/index.ts')).then((m) => ({ default: m.DashboardPage })),
);
export const ReportsPage = screen(() =>
  feature('reports', import('../features/reports/index.ts')).then((m) => ({ default: m.ReportsPage })),
);
export const GeofencesPage = screen(() =>
  feature('geofences', import('../features/geofences/index.ts')).then((m) => ({ default: m.GeofencesPage })),
);
export const CommandsPage = screen(() =>
  feature('commands', import('../features/commands/index.ts')).then((m) => ({ default: m.CommandsPage })),
);
export const GroupsPage = screen(() =>
  feature('groups', import('../features/groups/index.ts')).then((m) => ({ default: m.GroupsPage })),
);
export const NotificationsPage = screen(() =>
  feature('notifications', import('../features/notifications/index.ts')).then((m) => ({
    default: m.NotificationsPage,
  })),
);
export const ComputedPage = screen(() =>
  feature('computed', import('../features/computed/index.ts')).then((m) => ({ default: m.ComputedPage })),
);
export const UsersPage = screen(() =>
  feature('users', import('../features/users/index.ts')).then((m) => ({ default: m.UsersPage })),
);
export const AutolinkPage = screen(() =>
  feature('autolink', import('../features/autolink/index.ts')).then((m) => ({ default: m.AutolinkPage })),
);
export const ServerHealthPage = screen(() =>
  feature('health', import('../features/health/index.ts')).then((m) => ({ default: m.ServerHealthPage })),
);
export const AssistantPage = screen(() =>
  feature('assistant', import('../features/assistant/index.ts')).then((m) => ({ default: m.AssistantPage })),
);
export const MonitoringPage = screen(() =>
  feature('monitoring', import('../features/monitoring/index.ts')).then((m) => ({
    default: m.MonitoringPage,
  })),
);
export const LoginPage = screen(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.LoginPage })),
);
export const RegisterPage = screen(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.RegisterPage })),
);
export const RecoverPage = screen(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.RecoverPage })),
);
export const DriverLoginPage = screen(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.DriverLoginPage })),
);
export const SharePage = screen(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.SharePage })),
);
export const MaintenancePage = screen(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.MaintenancePage })),
);
// Its own chunk: the sign-in pages do not carry the driver's check-in screen (nor its texts).
export const QrDriverPage = screen(() =>
  Promise.all([import('../features/auth/QrDriverPage.tsx'), loadShellTexts()]).then(([m]) => ({
    default: m.QrDriverPage,
  })),
);
export const NotifyHost = lazyPage(() =>
  feature('notify', import('../features/notify/index.ts')).then((m) => ({ default: m.NotifyHost })),
);
