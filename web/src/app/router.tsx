// Every route of SPEC §2 (wouter). Unknown paths go to /home; the guard (RootLayout) checks each navigation.
import { lazy, Suspense, type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { LoadingBar } from '../components/LoadingBar.tsx';
import { loadShellTexts } from '../i18n/index.ts';
import * as P from './pages.tsx';
import { RootLayout } from './RootLayout.tsx';

// The signed-in shell (header, menus, map, device actions) is a chunk of its own: the public pages (login,
// register, recover, share, driver login) never download it, nor the texts of its screens.
const ShellLayout = lazy(() =>
  Promise.all([import('./ShellLayout.tsx'), loadShellTexts()]).then(([m]) => ({ default: m.ShellLayout })),
);

/**
 * A signed-in page's code, started while the guard still checks the session (main.tsx): the shell and the map
 * download and compile during the guard's network waits instead of after them.
 */
export function preloadSignedIn(): void {
  void import('./ShellLayout.tsx').catch(() => undefined);
  void P.preloadMap();
}

const page = (node: ReactNode) => <Suspense fallback={<LoadingBar />}>{node}</Suspense>;

const shellPages: [path: string, node: ReactNode][] = [
  ['/devices', <P.DevicesPage />],
  ['/devices/:deviceId', <P.DeviceDetailPage />],
  ['/computed', <P.ComputedPage />],
  ['/autolink', <P.AutolinkPage />],
  ['/autolink/:id', <P.AutolinkPage />],
  ['/notifications', <P.NotificationsPage />],
  ['/history', <P.HistoryPage />],
  ['/dashboard', <P.DashboardPage />],
  ['/reports', <P.ReportsPage />],
  ['/reports/resume', <P.ReportsPage kind="resume" />],
  ['/reports/travels', <P.ReportsPage kind="travels" />],
  ['/reports/stops', <P.ReportsPage kind="stops" />],
  ['/reports/events', <P.ReportsPage kind="events" />],
  ['/reports/history', <P.ReportsPage kind="history" />],
  ['/geofence', <P.GeofencesPage />],
  ['/users', <P.UsersPage />],
  ['/groups', <P.GroupsPage />],
  ['/commands', <P.CommandsPage />],
  ['/server-health', <P.ServerHealthPage />],
  ['/asistente-demo', <P.AssistantPage />],
];

/**
 * The public pages, then the signed-in shell around its panel pages (one shell for all of them, so moving
 * between panels keeps the map). `/` and unknown paths go to /home.
 */
export function AppRoutes() {
  return (
    <RootLayout>
      <Switch>
        <Route path="/share/:token">{page(<P.SharePage />)}</Route>
        <Route path="/login">{page(<P.LoginPage />)}</Route>
        <Route path="/register">{page(<P.RegisterPage />)}</Route>
        <Route path="/login/recover/:token">{page(<P.RecoverPage />)}</Route>
        <Route path="/motorista">{page(<P.DriverLoginPage />)}</Route>
        <Route path="/maintenance">{page(<P.MaintenancePage />)}</Route>
        <Route path="/qr-driver">{page(<P.QrDriverPage />)}</Route>
        <Route path="/qr-driver/scan/:id">{page(<P.QrDriverPage />)}</Route>
        <Route path="/">
          <Redirect to="/home" replace />
        </Route>
        {/* Any other path is the signed-in shell: one element for every panel page, so the map stays. */}
        <Route>
          {page(
            <ShellLayout>
              <Switch>
                <Route path="/home">{null}</Route>
                {shellPages.map(([path, node]) => (
                  <Route key={path} path={path}>
                    {page(node)}
                  </Route>
                ))}
                <Route>
                  <Redirect to="/home" replace />
                </Route>
              </Switch>
            </ShellLayout>,
          )}
        </Route>
      </Switch>
    </RootLayout>
  );
}
