// What the safety dialogs do (SPEC §3, §4, §8): anchor on/off and the interlock's refusal (commands go through
// shell/sendCommand.ts).
// Each function talks to the API through the shared clients and returns a plain result for the dialogs.
import {
  anchorForDevice,
  anchorLink,
  buildAnchorGeofence,
  refusalText,
  type Device,
  type Geofence,
  type Position,
} from '@rastro/domain';
import { api, HttpError } from '../../api/http.ts';

/** The server's refusal text of a failed request (403), or null. */
export function refusalOf(err: unknown): string | null {
  return err instanceof HttpError ? refusalText(err.status, err.text) : null;
}

/** Anchor on: POST the 150 m circle at the last position (else GET /api/positions?deviceId=), then link it. */
export async function enableAnchor(device: Device, position: Position | undefined): Promise<Geofence> {
  const pos = position ?? (await api.get<Position[]>('/positions', { deviceId: device.id }))[0];
  if (!pos) throw new HttpError(400, 'Device has no position');
  // SPEC §3 builds the anchor with id -1; the API takes ids ≥ 0 and assigns one on POST, so it goes as 0.
  const created = await api.post<Geofence>('/geofences', { ...buildAnchorGeofence(device, pos), id: 0 });
  try {
    await api.post('/permissions', anchorLink(device.id, created.id));
  } catch (err) {
    // an anchor that is not linked to its device would be a stray fence: remove it again
    await api.del(`/geofences/${created.id}`).catch(() => undefined);
    throw err;
  }
  return created;
}

/** Anchor off: delete the device's anchor geofence(s). */
export async function disableAnchor(device: Device): Promise<number> {
  const list = await api.get<Geofence[]>('/geofences');
  let removed = 0;
  for (let g = anchorForDevice(list, device.id); g; g = anchorForDevice(list, device.id)) {
    await api.del(`/geofences/${g.id}`);
    list.splice(list.indexOf(g), 1);
    removed++;
  }
  return removed;
}
