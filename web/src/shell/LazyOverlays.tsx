// The app-wide overlays (Overlays.tsx: Mantine's modals and notification stack, about 40 kB of gzip with the
// floating, focus-trap and scroll-area code under them), lazily; on a public page (main.tsx awaitTyping) only once
// someone is signed in, the person starts typing, a notification is shown or a modal is asked for, so that the
// sign-in page's first visit downloads the sign-in page alone (issue #31). Notifications wait in Mantine's store
// meanwhile; a modal asked for before the provider listens is opened again once it does (Overlays.tsx).
import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import { useNotifications } from '@mantine/notifications';
import { useSession } from '../stores/session.ts';
import { onTypingStart, typingAwaited } from '../typingStart.ts';
import type { MissedModal, ModalOpening } from './Overlays.tsx';

type OverlaysPart = ComponentType<{ missed: () => MissedModal[] }>;

/** How long after a failed download the overlays' chunk is asked for again (a stopped server, a lost network). */
const RETRY_MS = 5000;

/** Mantine's modal openings (@mantine/modals: window events `mantine-modals:<name>` with the payload as detail). */
const MODAL_OPENINGS: ModalOpening[] = ['openModal', 'openConfirmModal', 'openContextModal'];
const PREFIX = 'mantine-modals:';

export function LazyOverlays() {
  const signedIn = useSession((s) => s.user !== null);
  const [wanted, setWanted] = useState(() => !typingAwaited());
  const notified = useNotifications().notifications.length > 0;
  const shown = wanted || signedIn || notified;
  /** Modal openings seen before the provider listened; null once it does. */
  const missed = useRef<MissedModal[] | null>([]);

  useEffect(() => {
    const onModal = (e: Event) => {
      if (!missed.current) return;
      const opening = e.type.slice(PREFIX.length) as ModalOpening;
      missed.current.push({ opening, payload: (e as Event & { detail?: unknown }).detail });
      setWanted(true);
    };
    for (const name of MODAL_OPENINGS) window.addEventListener(PREFIX + name, onModal);
    return () => {
      for (const name of MODAL_OPENINGS) window.removeEventListener(PREFIX + name, onModal);
    };
  }, []);
  useEffect(() => (shown ? undefined : onTypingStart(() => setWanted(true))), [shown]);

  /** Hands the missed openings over once (the provider opens them again) and stops collecting. */
  const takeMissed = useCallback(() => {
    const list = missed.current ?? [];
    missed.current = null;
    return list;
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
  return <Overlays missed={takeMissed} />;
}
