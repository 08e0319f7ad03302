// Route pages, each a lazy import of its feature's index.ts, so a page only loads its own code (and texts).
import { feature } from './featureTexts.ts';
import { loadShellTexts } from '../i18n/index.ts';
import { lazyPage } from './lazyPage.tsx';

/** The map, started by router.tsx preloadSignedIn before the shell renders it. */
export const MapView = lazyPage(() =>
  feature('map', import('../features/map/index.ts')).then((m) => ({ default: m.MapView })),
);
export const DevicesPage = lazyPage(() =>
  feature('devices', import('../features/devices/index.ts')).then((m) => ({ default: m.DevicesPage })),
);
export const DeviceDetailPage = lazyPage(() =>
  feature('devices', import('../features/devices/index.ts')).then((m) => ({ default: m.DeviceDetailPage })),
);
export const HistoryPage = lazyPage(() =>
  feature('history', import('../features/history/index.ts')).then((m) => ({ default: m.HistoryPage })),
);
export const DashboardPage = lazyPage(() =>
  feature('dashboard', import('../features/dashboard/index.ts')).then((m) => ({ default: m.DashboardPage })),
);
export const ReportsPage = lazyPage(() =>
  feature('reports', import('../features/reports/index.ts')).then((m) => ({ default: m.ReportsPage })),
);
export const GeofencesPage = lazyPage(() =>
  feature('geofences', import('../features/geofences/index.ts')).then((m) => ({ default: m.GeofencesPage })),
);
export const CommandsPage = lazyPage(() =>
  feature('commands', import('../features/commands/index.ts')).then((m) => ({ default: m.CommandsPage })),
);
export const GroupsPage = lazyPage(() =>
  feature('groups', import('../features/groups/index.ts')).then((m) => ({ default: m.GroupsPage })),
);
export const NotificationsPage = lazyPage(() =>
  feature('notifications', import('../features/notifications/index.ts')).then((m) => ({
    default: m.NotificationsPage,
  })),
);
export const ComputedPage = lazyPage(() =>
  feature('computed', import('../features/computed/index.ts')).then((m) => ({ default: m.ComputedPage })),
);
export const UsersPage = lazyPage(() =>
  feature('users', import('../features/users/index.ts')).then((m) => ({ default: m.UsersPage })),
);
export const AutolinkPage = lazyPage(() =>
  feature('autolink', import('../features/autolink/index.ts')).then((m) => ({ default: m.AutolinkPage })),
);
export const ServerHealthPage = lazyPage(() =>
  feature('health', import('../features/health/index.ts')).then((m) => ({ default: m.ServerHealthPage })),
);
export const AssistantPage = lazyPage(() =>
  feature('assistant', import('../features/assistant/index.ts')).then((m) => ({ default: m.AssistantPage })),
);
export const LoginPage = lazyPage(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.LoginPage })),
);
export const RegisterPage = lazyPage(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.RegisterPage })),
);
export const RecoverPage = lazyPage(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.RecoverPage })),
);
export const DriverLoginPage = lazyPage(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.DriverLoginPage })),
);
export const SharePage = lazyPage(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.SharePage })),
);
export const MaintenancePage = lazyPage(() =>
  feature('auth', import('../features/auth/index.ts')).then((m) => ({ default: m.MaintenancePage })),
);
// Its own chunk: the sign-in pages do not carry the driver's check-in screen (nor its texts).
export const QrDriverPage = lazyPage(() =>
  Promise.all([import('../features/auth/QrDriverPage.tsx'), loadShellTexts()]).then(([m]) => ({
    default: m.QrDriverPage,
  })),
);
export const NotifyHost = lazyPage(() =>
  feature('notify', import('../features/notify/index.ts')).then((m) => ({ default: m.NotifyHost })),
);
