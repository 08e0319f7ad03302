// The app's navigation on wouter (issue #13: a 2 kB router instead of react-router's 28 kB on every page): the
// current path and query, and a navigate function that also steps back through history (navigate(-1)).
import { useCallback } from 'react';
import { useLocation, useSearch } from 'wouter';

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one. */
  replace?: boolean;
}

export type NavigateFunction = (to: string | number, options?: NavigateOptions) => void;

/** navigate('/devices/3'), navigate('/login', { replace: true }), navigate(-1). */
export function useNavigate(): NavigateFunction {
  const [, setLocation] = useLocation();
  return useCallback(
    (to, options) => {
      if (typeof to === 'number') window.history.go(to);
      else setLocation(to, { replace: options?.replace ?? false });
    },
    [setLocation],
  );
}

/** The current location: pathname and search (with its leading '?', or '' when there is none). */
export function useRouteLocation(): { pathname: string; search: string } {
  const [pathname] = useLocation();
  const search = useSearch();
  return { pathname, search: search ? `?${search}` : '' };
}
