// Route pages, each a lazy import of its feature's index.ts, so a page only loads its own code.
import { lazy } from 'react';
import { loadAllTexts } from '../i18n/index.ts';

export const MapView = lazy(() => import('../features/map/index.ts').then((m) => ({ default: m.MapView })));
export const DevicesPage = lazy(() =>
  import('../features/devices/index.ts').then((m) => ({ default: m.DevicesPage })),
);
export const DeviceDetailPage = lazy(() =>
  import('../features/devices/index.ts').then((m) => ({ default: m.DeviceDetailPage })),
);
export const HistoryPage = lazy(() =>
  import('../features/history/index.ts').then((m) => ({ default: m.HistoryPage })),
);
export const DashboardPage = lazy(() =>
  import('../features/dashboard/index.ts').then((m) => ({ default: m.DashboardPage })),
);
export const ReportsPage = lazy(() =>
  import('../features/reports/index.ts').then((m) => ({ default: m.ReportsPage })),
);
export const GeofencesPage = lazy(() =>
  import('../features/geofences/index.ts').then((m) => ({ default: m.GeofencesPage })),
);
export const CommandsPage = lazy(() =>
  import('../features/commands/index.ts').then((m) => ({ default: m.CommandsPage })),
);
export const GroupsPage = lazy(() =>
  import('../features/groups/index.ts').then((m) => ({ default: m.GroupsPage })),
);
export const NotificationsPage = lazy(() =>
  import('../features/notifications/index.ts').then((m) => ({ default: m.NotificationsPage })),
);
export const ComputedPage = lazy(() =>
  import('../features/computed/index.ts').then((m) => ({ default: m.ComputedPage })),
);
export const UsersPage = lazy(() =>
  import('../features/users/index.ts').then((m) => ({ default: m.UsersPage })),
);
export const AutolinkPage = lazy(() =>
  import('../features/autolink/index.ts').then((m) => ({ default: m.AutolinkPage })),
);
export const ServerHealthPage = lazy(() =>
  import('../features/health/index.ts').then((m) => ({ default: m.ServerHealthPage })),
);
export const AssistantPage = lazy(() =>
  import('../features/assistant/index.ts').then((m) => ({ default: m.AssistantPage })),
);
export const LoginPage = lazy(() =>
  import('../features/auth/index.ts').then((m) => ({ default: m.LoginPage })),
);
export const RegisterPage = lazy(() =>
  import('../features/auth/index.ts').then((m) => ({ default: m.RegisterPage })),
);
export const RecoverPage = lazy(() =>
  import('../features/auth/index.ts').then((m) => ({ default: m.RecoverPage })),
);
export const DriverLoginPage = lazy(() =>
  import('../features/auth/index.ts').then((m) => ({ default: m.DriverLoginPage })),
);
export const SharePage = lazy(() =>
  import('../features/auth/index.ts').then((m) => ({ default: m.SharePage })),
);
export const MaintenancePage = lazy(() =>
  import('../features/auth/index.ts').then((m) => ({ default: m.MaintenancePage })),
);
// Its own chunk: the sign-in pages do not carry the driver's check-in screen (nor its texts).
export const QrDriverPage = lazy(() =>
  Promise.all([import('../features/auth/QrDriverPage.tsx'), loadAllTexts()]).then(([m]) => ({
    default: m.QrDriverPage,
  })),
);
export const NotifyHost = lazy(() =>
  import('../features/notify/index.ts').then((m) => ({ default: m.NotifyHost })),
);
