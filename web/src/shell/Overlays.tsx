// The app-wide overlays: Mantine's confirm/content modals (opened through `modals.*`) and the notification
// stack (fed through `notifications.*`, whose store keeps what is shown before this mounts). A chunk of its
// own, rendered lazily by Providers (LazyOverlays.tsx): the sign-in pages paint without the modal, scroll-area and
// transition code. The modals asked for before it loaded (`missed`, collected by LazyOverlays) are opened again
// through Mantine's own calls once the provider listens (children's effects run first).
import { ModalsProvider, modals } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { useEffect } from 'react';

/** The three ways of opening a modal, as Mantine names their window events. */
export type ModalOpening = 'openModal' | 'openConfirmModal' | 'openContextModal';

/** A modal asked for before the provider listened: how, and the payload Mantine sent. */
export interface MissedModal {
  opening: ModalOpening;
  payload: unknown;
}

// the payload is what Mantine's call of the same name sent
const reopen = ({ opening, payload }: MissedModal) =>
  modals[opening === 'openModal' ? 'open' : opening](payload as never);

export function Overlays({ missed }: { missed?: () => MissedModal[] }) {
  useEffect(() => {
    for (const m of missed?.() ?? []) reopen(m);
  }, [missed]);
  return (
    <>
      <ModalsProvider />
      <Notifications position="bottom-right" limit={5} />
    </>
  );
}
