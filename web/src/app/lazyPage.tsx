// A lazy part whose code can be started before it renders (router.tsx preloadSignedIn), and which never suspends
// while that code is on its way: it shows its fallback, then the part once the code is there, as a plain state
// update. React 19 holds the reveal of a suspended part (a Suspense retry) back until 300 ms after a fallback
// showed: with 10,000 devices the shell or the devices page appeared 250–700 ms after its devices and its code
// when either was still loading at the first render (bench/results/map.md, sessions 12 and 15). A failed load
// renders through React.lazy, which loads again and lets an error boundary see a second failure.
import {
  createElement,
  lazy,
  useEffect,
  useState,
  type ComponentProps,
  type ComponentType,
  type ReactNode,
} from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React's own lazy<T extends ComponentType<any>>
export function lazyPage<T extends ComponentType<any>>(
  load: () => Promise<{ default: T }>,
  fallback: ReactNode = null,
) {
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
    const [state, setState] = useState<{ part?: T; failed?: boolean }>(() => ({ part: loaded }));
    useEffect(() => {
      if (state.part || state.failed) return;
      let mounted = true;
      once().then(
        (m) => mounted && setState({ part: m.default }),
        () => mounted && setState({ failed: true }),
      );
      return () => {
        mounted = false;
      };
    }, [state]);
    if (state.part) return createElement(state.part, props);
    return state.failed ? createElement(Lazy, props) : fallback;
  }
  /** Starts the code; resolves once it is there or failed (rendering then loads again). */
  const preload = (): Promise<void> =>
    once().then(
      () => undefined,
      () => undefined,
    );
  return Object.assign(Page, { preload });
}
