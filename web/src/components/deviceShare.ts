// A live link to one device until a given instant (the device's share dialog, the monitoring desk's short link):
// made by the extension API on a Plus server (POST /{ns}/shares, so it can be listed, extended and revoked), by
// Traccar's POST /api/share/device otherwise. The link is <origin>/share/<token>.
import { shareLink, type ShareRecord } from '@rastro/domain';
import { api, ext } from '../api/http.ts';

export async function createDeviceShare(deviceId: number, until: string, isPlus: boolean) {
  const token = isPlus
    ? (await ext.post<ShareRecord>('/shares', { deviceId, expirationTime: until })).token
    : String(await api.postForm<string>('/share/device', { deviceId, expiration: until })).trim();
  return { link: shareLink(window.location.origin, token), until };
}
