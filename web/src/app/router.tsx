// Every route of SPEC §2. Unknown paths go to /home; the guard (RootLayout) checks each navigation.
import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LoadingBar } from '../components/LoadingBar.tsx';
import { loadAllTexts } from '../i18n/index.ts';
import * as P from './pages.tsx';
import { RootLayout } from './RootLayout.tsx';

// The signed-in shell (header, menus, map, device actions) is a chunk of its own: the public pages (login,
// register, recover, share, driver login) never download it, nor the texts of its screens.
const ShellLayout = lazy(() =>
  Promise.all([import('./ShellLayout.tsx'), loadAllTexts()]).then(([m]) => ({ default: m.ShellLayout })),
);

const page = (node: ReactNode) => <Suspense fallback={<LoadingBar />}>{node}</Suspense>;

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      { path: '/share/:token', element: page(<P.SharePage />) },
      { path: '/login', element: page(<P.LoginPage />) },
      { path: '/register', element: page(<P.RegisterPage />) },
      { path: '/login/recover/:token', element: page(<P.RecoverPage />) },
      { path: '/motorista', element: page(<P.DriverLoginPage />) },
      { path: '/maintenance', element: page(<P.MaintenancePage />) },
      { path: '/qr-driver', element: page(<P.QrDriverPage />) },
      { path: '/qr-driver/scan/:id', element: page(<P.QrDriverPage />) },
      {
        element: page(<ShellLayout />),
        children: [
          { path: '/home', element: null },
          { path: '/devices', element: page(<P.DevicesPage />) },
          { path: '/devices/:deviceId', element: page(<P.DeviceDetailPage />) },
          { path: '/computed', element: page(<P.ComputedPage />) },
          { path: '/autolink', element: page(<P.AutolinkPage />) },
          { path: '/autolink/:id', element: page(<P.AutolinkPage />) },
          { path: '/notifications', element: page(<P.NotificationsPage />) },
          { path: '/history', element: page(<P.HistoryPage />) },
          { path: '/dashboard', element: page(<P.DashboardPage />) },
          { path: '/reports', element: page(<P.ReportsPage />) },
          { path: '/reports/resume', element: page(<P.ReportsPage kind="resume" />) },
          { path: '/reports/travels', element: page(<P.ReportsPage kind="travels" />) },
          { path: '/reports/stops', element: page(<P.ReportsPage kind="stops" />) },
          { path: '/reports/events', element: page(<P.ReportsPage kind="events" />) },
          { path: '/reports/history', element: page(<P.ReportsPage kind="history" />) },
          { path: '/geofence', element: page(<P.GeofencesPage />) },
          { path: '/users', element: page(<P.UsersPage />) },
          { path: '/groups', element: page(<P.GroupsPage />) },
          { path: '/commands', element: page(<P.CommandsPage />) },
          { path: '/server-health', element: page(<P.ServerHealthPage />) },
          { path: '/asistente-demo', element: page(<P.AssistantPage />) },
        ],
      },
      { path: '/', element: <Navigate to="/home" replace /> },
      { path: '*', element: <Navigate to="/home" replace /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
