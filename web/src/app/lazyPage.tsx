// A lazy part whose code can be started before it renders (router.tsx preloadSignedIn), and which does not suspend
// when its code is already there: React 19 holds a Suspense boundary's content back for up to 300 ms after its
// fallback showed, so a preloaded shell, map or page rendered through React.lazy alone appeared later than its
// code (bench/results/map.md, session 12). A failed load is retried on the next render or preload.
import { createElement, lazy, useState, type ComponentProps, type ComponentType } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React's own lazy<T extends ComponentType<any>>
export function lazyPage<T extends ComponentType<any>>(load: () => Promise<{ default: T }>) {
  let loading: Promise<{ default: T }> | undefined;
  let loaded: T | undefined;
  const once = () =>
    (loading ??= load().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (err: unknown) => {
        loading = undefined;
        throw err;
      },
    ));
  const Lazy = lazy(once);
  function Page(props: ComponentProps<T>) {
    // decided once per mount: switching from the lazy wrapper to the component would remount it
    const [ready] = useState(() => loaded);
    return ready ? createElement(ready, props) : createElement(Lazy, props);
  }
  return Object.assign(Page, { preload: () => void once().catch(() => undefined) });
}
