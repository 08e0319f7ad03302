// Runs the SPEC §2 guard on every navigation: marks the app not loaded, checks, then follows the verdict.
import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate, useRouteLocation } from '../components/navigation.ts';
import { LoadingBar } from '../components/LoadingBar.tsx';
import { useViewer } from '../components/useCan.ts';
import { DialogHost } from './DialogHost.tsx';
import { runGuard, type GuardEffects } from './guard.ts';
import { matchRoute, routeAllowed } from './routeMeta.ts';
import { guardEffects } from '../shell/sessionActions.ts';
import { useUi } from '../shell/ui.ts';

export function RootLayout({
  children,
  effects = guardEffects,
}: {
  children?: ReactNode;
  effects?: GuardEffects;
}) {
  const location = useRouteLocation();
  const navigate = useNavigate();
  const loaded = useUi((s) => s.loaded);
  const setLoaded = useUi((s) => s.setLoaded);
  const viewer = useViewer();
  const { user } = viewer;
  const [passed, setPassed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    setLoaded(false);
    void runGuard({ pathname: location.pathname, search: location.search }, effects).then((verdict) => {
      if (cancelled) return;
      if (verdict.kind === 'redirect') {
        navigate(verdict.to, { replace: true });
      } else {
        setPassed(true);
        setLoaded(true);
      }
    });
    return () => {
      cancelled = true;
    };
  }, [location.pathname, location.search, effects, navigate, setLoaded]);

  // Never show a protected page to a visitor the guard has not signed in.
  const meta = matchRoute(location.pathname)?.meta;
  const access = meta?.access;
  const allowed = passed && (access === 'public' || (user !== null && routeAllowed(meta, viewer)));
  return (
    <>
      <LoadingBar visible={!loaded} />
      {allowed && children}
      <DialogHost />
    </>
  );
}
