// The app-wide overlays: Mantine's confirm/content modals (opened through `modals.*`) and the notification
// stack (fed through `notifications.*`, whose store keeps what is shown before this mounts). A chunk of its
// own, rendered lazily by Providers: the sign-in pages paint without the modal, scroll-area and transition code.
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';

export function Overlays() {
  return (
    <>
      <ModalsProvider />
      <Notifications position="bottom-right" limit={5} />
    </>
  );
}
