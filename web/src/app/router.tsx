// Every route of SPEC §2 (wouter). Unknown paths go to /home; the guard (RootLayout) checks each navigation.
import { Suspense, type ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { LoadingBar } from '../components/LoadingBar.tsx';
import { loadShellTexts } from '../i18n/index.ts';
import * as P from './pages.tsx';
import { lazyPage } from './lazyPage.tsx';
import { RootLayout } from './RootLayout.tsx';
import { matchRoute } from './routeMeta.ts';

// The signed-in shell (header, menus, map, device actions) is a chunk of its own: the public pages (login,
// register, recover, share, driver login) never download it, nor the texts of its screens.
const ShellLayout = lazyPage(
  () =>
    Promise.all([import('./ShellLayout.tsx'), loadShellTexts()]).then(([m]) => ({ default: m.ShellLayout })),
  <LoadingBar />,
);

const page = (node: ReactNode) => <Suspense fallback={<LoadingBar />}>{node}</Suspense>;

/**
 * A signed-in page's code, started while the guard still checks the session (main.tsx): the map, the shell (code
 * and texts) and the page download and compile during the guard's network waits instead of after them. Over
 * HTTP/1.1 a browser opens six connections to a server and sends what was asked first first: MapLibre's large
 * chunk goes first, so it downloads on one connection while the many small ones of the shell and the page take
 * the other five (bench/results/map.md, session 12).
 */
export function preloadSignedIn(pathname: string): void {
  // the marker icons: a small chunk and a 16 kB image, decoded while the page still waits for its devices
  // (the map imports them again should this chunk fail)
  void import('../api/mapIcons.ts').then((m) => m.prefetchIcons()).catch(() => undefined);
  void P.MapView.preload();
  void ShellLayout.preload();
  const route = matchRoute(pathname)?.meta.path;
  void P.shellPages.find(([path]) => path === route)?.[1].preload();
  // the shell always renders the notifications' host; asked for only when the shell rendered, it arrived last
  void P.NotifyHost.preload();
}

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
                {P.shellPages.map(([path, Page, kind]) => (
                  <Route key={path} path={path}>
                    {page(<Page kind={kind} />)}
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
