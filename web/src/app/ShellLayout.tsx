// The signed-in layout (SPEC §2): the full-screen map rendered once behind a side panel holding the routed page,
// the header and the side menu. QR drivers see only the routed view; shared-link guests see no menu and a
// full-width map with a countdown in the header.
import { ActionIcon, Box, Button, Group } from '@mantine/core';
import { IconLogout, IconQrcode } from '@tabler/icons-react';
import { isQrDriver, isShared } from '@rastro/domain';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'wouter';
import { useNavigate, useRouteLocation } from '../components/navigation.ts';
import { Panel } from '../components/Panel.tsx';
import { useBranding } from '../branding/index.ts';
import { useIsMobile } from '../components/useIsMobile.ts';
import { useSession } from '../stores/session.ts';
import { Header } from './Header.tsx';
import { LoginAsBanner } from './LoginAsBanner.tsx';
import { MapView, NotifyHost } from './pages.tsx';
// Mounted eagerly so a device action raised right after load is never lost while a chunk loads.
import { DeviceActionsHost } from '../features/device-actions/DeviceActionsHost.tsx';
import { isExpanded, matchRoute, routeAllowed } from './routeMeta.ts';
import { api } from '../api/http.ts';
import { closeSocket, onSessionEnded } from '../api/socket.ts';
import { useViewer } from '../components/useCan.ts';
import { logout } from '../shell/sessionActions.ts';
import { SideMenu } from './SideMenu.tsx';
import { useUi } from '../shell/ui.ts';
import { useFirstMapDrawn } from '../stores/firstMap.ts';

// Shown only on a phone (the menu drawer) or when a shared link expires: chunks of their own, off the first paint.
const Drawer = lazy(() => import('./MenuDrawer.tsx').then((m) => ({ default: m.Drawer })));
const SessionExpired = lazy(() =>
  import('./SessionExpired.tsx').then((m) => ({ default: m.SessionExpired })),
);

export function ShellLayout({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useRouteLocation();
  const mobile = useIsMobile();
  const user = useSession((s) => s.user);
  const ns = useSession((s) => s.ns);
  const { panelMinimised, setPanelMinimised, menuOpen, setMenuOpen, mapEditing } = useUi();
  const [expired, setExpired] = useState(false);
  // the panel's page renders once the map has drawn its first frame with the vehicles (stores/firstMap.ts)
  const pageShown = useFirstMapDrawn();

  const meta = matchRoute(location.pathname)?.meta;
  const shared = isShared(user);
  const driver = isQrDriver(user, ns);
  const withMenu = !shared && !driver;
  const expanded = isExpanded(meta, location.search);
  const [, setSearchParams] = useSearchParams();
  const toggleExpanded = () =>
    setSearchParams((p) => ({ ...Object.fromEntries(p), expand: String(!expanded) }));
  const brandTitle = useBranding().title;
  const pageTitle = meta ? t(meta.title) : '';
  useEffect(() => {
    document.title = pageTitle ? `${pageTitle} · ${brandTitle}` : brandTitle;
  }, [pageTitle, brandTitle]);

  // The link expired: end the server session and the live socket, then the warning forces a reload. The user stays
  // in the store until then so the shell (and the warning) stay mounted.
  const onShareExpired = () => {
    void api.del('/session').catch(() => undefined);
    closeSocket();
    setExpired(true);
  };

  // the live socket found the session ended (a revoked link, a sign-out elsewhere): a guest is told its link
  // expired; anyone else reloads, and the guard restores the session (remember-me) or asks to sign in
  useEffect(() => {
    onSessionEnded(() => (shared ? onShareExpired() : window.location.reload()));
    return () => onSessionEnded(null);
  });

  // a back button only where it leads somewhere the viewer may go (a guest's vehicle has no device list behind it)
  const viewer = useViewer();
  const backAllowed = !meta?.backBtn || routeAllowed(matchRoute(meta.backBtn)?.meta, viewer);
  const back = () => {
    if (meta?.backBtn) navigate(meta.backBtn);
    else if (window.history.length > 1) navigate(-1);
    else navigate('/home');
  };

  return (
    <Box
      data-testid="shell"
      data-mobile={mobile ? 'true' : 'false'}
      data-role={shared ? 'shared' : driver ? 'driver' : 'user'}
      style={{ position: 'fixed', inset: 0, display: 'flex', flexDirection: 'column' }}
    >
      <LoginAsBanner />
      {!driver && <Header onShareExpired={onShareExpired} />}
      <Box style={{ flex: 1, display: 'flex', minHeight: 0 }}>
        {withMenu && !mobile && <SideMenu />}
        <Box style={{ flex: 1, position: 'relative', minWidth: 0 }} data-testid="map-area">
          <Box style={{ position: 'absolute', inset: 0 }}>
            <Suspense fallback={null}>
              <MapView />
            </Suspense>
          </Box>
          {meta?.shown && !mapEditing && (
            <Panel
              title={t(meta.title)}
              mobile={mobile}
              bottomSheet={meta.mobileBottom}
              expanded={expanded}
              fullWidth={driver}
              minimised={mobile && panelMinimised}
              onToggleMinimised={() => setPanelMinimised(!panelMinimised)}
              onToggleExpanded={meta.allowExpand ? toggleExpanded : undefined}
              onBack={backAllowed ? back : undefined}
              onClose={() => navigate('/home')}
            >
              {pageShown && children}
            </Panel>
          )}
          {driver && (
            // the map is one step from the driver's own view (check-in, check-out, engine): this leads back to it
            <ActionIcon
              pos="absolute"
              top={8}
              right={52}
              size="lg"
              variant="filled"
              style={{ zIndex: 7 }}
              aria-label={t('shell:driverView')}
              onClick={() => navigate('/qr-driver')}
              data-testid="driver-view"
            >
              <IconQrcode size={18} />
            </ActionIcon>
          )}
          {driver && (
            <ActionIcon
              pos="absolute"
              top={8}
              right={8}
              size="lg"
              color="red"
              variant="filled"
              style={{ zIndex: 7 }}
              aria-label={t('shell:driverLogout')}
              onClick={() => void logout()}
              data-testid="driver-logout"
            >
              <IconLogout size={18} />
            </ActionIcon>
          )}
          {mapEditing && (
            <Group pos="absolute" bottom={24} left={0} right={0} justify="center" style={{ zIndex: 6 }}>
              <Button onClick={mapEditing.onFinish} data-testid="map-edit-finish">
                {t('shell:mapEditing.finish')}
              </Button>
              <Button variant="default" onClick={mapEditing.onCancel} data-testid="map-edit-cancel">
                {t('shell:mapEditing.cancel')}
              </Button>
            </Group>
          )}
        </Box>
      </Box>
      {withMenu && mobile && (
        <Suspense fallback={null}>
          <Drawer
            opened={menuOpen}
            onClose={() => setMenuOpen(false)}
            size={280}
            title={t('shell:menu.label')}
          >
            <SideMenu list onNavigate={() => setMenuOpen(false)} />
          </Drawer>
        </Suspense>
      )}
      <Suspense fallback={null}>
        <NotifyHost />
      </Suspense>
      <DeviceActionsHost />
      {expired && (
        <Suspense fallback={null}>
          <SessionExpired opened onLeave={() => window.location.reload()} />
        </Suspense>
      )}
    </Box>
  );
}
