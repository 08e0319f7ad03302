// Web push registration (SPEC §1 push-notification control). When config.json's push settings are enabled
// with a VAPID public key, the browser subscribes through /service-worker.js and the subscription is kept in the
// user's `notificationTokens` attribute (comma-separated list; each entry is the base64url of the subscription
// JSON), where the server's push notificator reads it.
import { parseAttributeList, type User } from '@rastro/domain';
import { resourceClient } from '../api/resources.ts';
import { useSession } from '../stores/session.ts';

export type PushState = 'unsupported' | 'default' | 'granted' | 'denied';

export function pushState(): PushState {
  if (typeof window === 'undefined' || !('Notification' in window)) return 'unsupported';
  return Notification.permission as PushState;
}

function urlBase64ToUint8Array(base64: string): Uint8Array<ArrayBuffer> {
  const padded = (base64 + '='.repeat((4 - (base64.length % 4)) % 4)).replace(/-/g, '+').replace(/_/g, '/');
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

export function encodeSubscription(sub: PushSubscriptionJSON): string {
  return btoa(JSON.stringify(sub)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Adds a token to the comma-separated list without duplicates. */
export function addToken(list: unknown, token: string): string {
  const tokens = parseAttributeList(list);
  if (!tokens.includes(token)) tokens.push(token);
  return tokens.join(',');
}

export async function registerPush(vapidPublicKey: string): Promise<void> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window)) return;
  const registration = await navigator.serviceWorker.register('/service-worker.js');
  await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: urlBase64ToUint8Array(vapidPublicKey),
    }));
  const user = useSession.getState().user;
  if (!user) return;
  const token = encodeSubscription(subscription.toJSON());
  const current = user.attributes?.notificationTokens;
  const next = addToken(current, token);
  if (next === current) return;
  const saved = await resourceClient.save('users', {
    ...user,
    attributes: { ...user.attributes, notificationTokens: next },
  } as User);
  useSession.getState().setUser({ ...user, ...saved, password: null });
}
