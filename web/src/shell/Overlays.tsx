// The app-wide overlays: Mantine's confirm/content modals (opened through `modals.*`) and the notification
// stack (fed through `notifications.*`, whose store keeps what is shown before this mounts). A chunk of its
// own, rendered lazily by Providers (LazyOverlays.tsx): the sign-in pages paint without the modal, scroll-area and
// transition code. `onMount` runs once the modal provider listens (children's effects run first).
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { useEffect } from 'react';

export function Overlays({ onMount }: { onMount?: () => void }) {
  useEffect(() => onMount?.(), [onMount]);
  return (
    <>
      <ModalsProvider />
      <Notifications position="bottom-right" limit={5} />
    </>
  );
}
