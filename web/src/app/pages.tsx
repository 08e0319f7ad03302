// Route pages, each a lazy import of its feature's index.ts, so a page only loads its own code (and texts).
import { feature } from './featureTexts.ts';
import { lazy } from 'react';
import { loadShellTexts } from '../i18n/index.ts';

const mapCode = () => feature('map', import('../features/map/index.ts'));
/** Starts the map's code (router.tsx preloadSignedIn); MapView's lazy import then finds it loaded. */
export const preloadMap = () => mapCode().catch(() => undefined);
export const MapView = lazy(() => mapCode().then((m) => ({ default: m.MapView })));
export const DevicesPage = lazy(() =>
  feature('devices', import('../features/devices/index.ts')).then((m) => ({ default: m.DevicesPage })),
);
export const DeviceDetailPage = lazy(() =>
  feature('devices', import('../features/devices/index.ts')).then((m) => ({ default: m.DeviceDetailPage })),
);
export const HistoryPage = lazy(() =>
  feature('history', import('../features/history/index.ts')).then((m) => ({ default: m.HistoryPage })),
);
export const DashboardPage = lazy(() =>
  feature('dashboard', import('../features/dashboard/index.ts')).then((m) => ({ default: m.DashboardPage })),
);
export const ReportsPage = lazy(() =>
  feature('reports', import('../features/reports/index.ts')).then((m) => ({ default: m.ReportsPage })),
);
export const GeofencesPage = lazy(() =>
  feature('geofences', import('../features/geofences/index.ts')).then((m) => ({ default: m.GeofencesPage })),
);
export const CommandsPage = lazy(() =>
  feature('commands', import('../features/commands/index.ts')).then((m) => ({ default: m.CommandsPage })),
);
export const GroupsPage = lazy(() =>
  feature('groups', import('../features/groups/index.ts')).then((m) => ({ default: m.GroupsPage })),
);
export const NotificationsPage = lazy(() =>
  feature('notifications', import('../features/notifications/index.ts')).then((m) => ({
    default: m.NotificationsPage,
  })),
);
export const ComputedPage = lazy(() =>
  feature('computed', import('../features/computed/index.ts')).then((m) => ({ default: m.ComputedPage })),
);
export const UsersPage = lazy(() =>
  feature('users', import('../features/users/index.ts')).then((m) => ({ default: m.UsersPage })),
);
export const AutolinkPage = lazy(() =>
  feature('autolink', import('../features/autolink/index.ts')).then((m) => ({ default: m.AutolinkPage })),
);
export const ServerHealthPage = lazy(() =>
  feature('health', import('../features/health/index.ts')).then((m) => ({ default: m.ServerHealthPage })),
);
export const AssistantPage = lazy(() =>
  feature('assistant', import('../features/assistant/index.ts')).then((m) => ({ default: m.AssistantPage })),
);
export const LoginPage = lazy(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.LoginPage })),
);
export const RegisterPage = lazy(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.RegisterPage })),
);
export const RecoverPage = lazy(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.RecoverPage })),
);
export const DriverLoginPage = lazy(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.DriverLoginPage })),
);
export const SharePage = lazy(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.SharePage })),
);
export const MaintenancePage = lazy(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.MaintenancePage })),
);
// Its own chunk: the sign-in pages do not carry the driver's check-in screen (nor its texts).
export const QrDriverPage = lazy(() =>
  Promise.all([import('../features/auth/QrDriverPage.tsx'), loadShellTexts()]).then(([m]) => ({
    default: m.QrDriverPage,
  })),
);
export const NotifyHost = lazy(() =>
  feature('notify', import('../features/notify/index.ts')).then((m) => ({ default: m.NotifyHost })),
);
