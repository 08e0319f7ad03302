// The app-wide overlays (Overlays.tsx: Mantine's modals and notification stack, about 40 kB of gzip with the
// floating, focus-trap and scroll-area code under them), lazily; on a public page (main.tsx awaitTyping) only once
// someone is signed in, the person starts typing, a notification is shown or a modal is asked for, so that the
// sign-in page's first visit downloads the sign-in page alone (issue #31). Notifications wait in Mantine's store
// meanwhile; a modal asked for before the provider listens is asked for again once it does.
import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import { useNotifications } from '@mantine/notifications';
import { useSession } from '../stores/session.ts';
import { onTypingStart, typingAwaited } from '../typingStart.ts';

type OverlaysPart = ComponentType<{ onMount: () => void }>;

/** How long after a failed download the overlays' chunk is asked for again (a stopped server, a lost network). */
const RETRY_MS = 5000;

/** Mantine's modal events (@mantine/modals: window events `mantine-modals:<name>` with the payload as detail). */
const MODAL_OPENS = ['openModal', 'openConfirmModal', 'openContextModal'].map((n) => `mantine-modals:${n}`);

export function LazyOverlays() {
  const signedIn = useSession((s) => s.user !== null);
  const [wanted, setWanted] = useState(() => !typingAwaited());
  const notified = useNotifications().notifications.length > 0;
  const shown = wanted || signedIn || notified;
  /** Modal events seen before the provider listened; null once it does. */
  const missed = useRef<CustomEvent[] | null>([]);

  useEffect(() => {
    const onModal = (e: Event) => {
      if (!missed.current) return;
      missed.current.push(e as CustomEvent);
      setWanted(true);
    };
    for (const name of MODAL_OPENS) window.addEventListener(name, onModal);
    return () => {
      for (const name of MODAL_OPENS) window.removeEventListener(name, onModal);
    };
  }, []);
  useEffect(() => (shown ? undefined : onTypingStart(() => setWanted(true))), [shown]);

  const replay = useCallback(() => {
    const list = missed.current ?? [];
    missed.current = null;
    for (const e of list) window.dispatchEvent(new CustomEvent(e.type, { detail: e.detail as unknown }));
  }, []);

  // loaded by hand rather than React.lazy: a failed download (the server stopped while the sign-in page was open)
  // must not throw through the root and take the page, its connection error and the maintenance page with it
  const [Overlays, setOverlays] = useState<OverlaysPart | null>(null);
  useEffect(() => {
    if (!shown || Overlays) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      import('./Overlays.tsx').then(
        (m) => void (stopped || setOverlays(() => m.Overlays)),
        () => void (stopped || (timer = setTimeout(load, RETRY_MS))),
      );
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [shown, Overlays]);

  if (!shown || !Overlays) return null;
  return <Overlays onMount={replay} />;
}
