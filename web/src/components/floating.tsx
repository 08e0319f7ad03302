// Tooltips and menus without their weight on the first paint (issue #13): Mantine's Tooltip and Menu position
// themselves with floating-ui (with their own code about 30 kB gzip), so the signed-in shell paints its buttons
// bare and the floating pieces load once the browser is idle after that, or at the first click on a menu, which
// then opens as soon as they are there. Until then a hint is not shown; nothing else differs.
import { ActionIcon, type ActionIconProps, type MenuProps, type TooltipProps } from '@mantine/core';
import {
  useEffect,
  useState,
  useSyncExternalStore,
  type ComponentPropsWithoutRef,
  type ReactElement,
  type ReactNode,
} from 'react';

type Parts = typeof import('./floatingParts.ts');

let parts: Parts | null = null;
let pending: Promise<Parts> | null = null;
const listeners = new Set<() => void>();

/** Loads the floating pieces once (later calls share it); every Hint and DeferredMenu then re-renders with them. */
export function loadFloating(): Promise<Parts> {
  pending ??= import('./floatingParts.ts').then(
    (m) => {
      parts = m;
      for (const l of listeners) l();
      return m;
    },
    (err: unknown) => {
      pending = null;
      throw err;
    },
  );
  return pending;
}

const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** The floating pieces once loaded, asking for them when the browser is next idle. */
function useFloatingParts(): Parts | null {
  const loaded = useSyncExternalStore(subscribe, () => parts);
  useEffect(() => {
    if (loaded) return;
    const load = () => void loadFloating().catch(() => undefined);
    if ('requestIdleCallback' in window) {
      const id = window.requestIdleCallback(load, { timeout: 2000 });
      return () => window.cancelIdleCallback(id);
    }
    const id = setTimeout(load, 200);
    return () => clearTimeout(id);
  }, [loaded]);
  return loaded;
}

/** Mantine's Tooltip, once loaded; before that the child alone. */
export function Hint(props: TooltipProps) {
  const p = useFloatingParts();
  if (!p) return props.children;
  return <p.Tooltip {...props} />;
}

/** A subtle icon button whose hint is also its accessible name (the header's toggles, the panel's buttons). */
export function HintIcon({
  label,
  ...button
}: { label: string } & ActionIconProps & ComponentPropsWithoutRef<'button'>) {
  return (
    <Hint label={label}>
      <ActionIcon variant="subtle" aria-label={label} {...button} />
    </Hint>
  );
}

export interface DeferredMenuProps extends Omit<MenuProps, 'children'> {
  /** The button that opens the menu. */
  target: ReactElement;
  /** The dropdown's props (data-testid, …). */
  dropdownProps?: Record<string, unknown>;
  /** The dropdown's content, given Mantine's Menu (Menu.Item, Menu.Label, Menu.Divider). */
  children: (menu: Parts['Menu']) => ReactNode;
}

/** Mantine's Menu, once loaded; before that the bare target, whose click loads it and opens it. */
export function DeferredMenu({ target, dropdownProps, children, ...menu }: DeferredMenuProps) {
  const p = useFloatingParts();
  const [asked, setAsked] = useState(false);
  if (!p)
    return (
      <div
        style={{ display: 'contents' }}
        onClick={() => {
          setAsked(true);
          void loadFloating().catch(() => undefined);
        }}
      >
        {target}
      </div>
    );
  const M = p.Menu;
  return (
    <M defaultOpened={asked} {...menu}>
      <M.Target>{target}</M.Target>
      <M.Dropdown {...dropdownProps}>{children(M)}</M.Dropdown>
    </M>
  );
}
