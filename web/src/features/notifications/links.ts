// Device links of an event rule (CONTRACT §4 permissions): which of some devices a rule is linked to, read with
// GET /api/notifications?deviceId= (rules directly linked to that device), and the link/unlink calls that move a
// rule from one device set to another (POST / DELETE /api/permissions {deviceId, notificationId}).
import { linkChanges, type Notification } from '@rastro/domain';
import { api, HttpError } from '../../api/http.ts';

/** At most this many device look-ups run at once. */
const PARALLEL = 6;

/** The devices among `candidates` that rule `ruleId` is directly linked to (ascending). */
export async function linkedDevices(ruleId: number, candidates: readonly number[]): Promise<number[]> {
  const queue = [...new Set(candidates)];
  const found: number[] = [];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      try {
        const rules = await api.get<Notification[]>('/notifications', { deviceId: id });
        if (rules.some((r) => r.id === ruleId)) found.push(id);
      } catch (err) {
        // a device that is gone or no longer visible holds no link the caller can change
        if (!(err instanceof HttpError) || err.status === 0 || err.status >= 500) throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, queue.length) }, worker));
  return found.sort((a, b) => a - b);
}

/** Links the rule to the devices added and unlinks the ones removed; returns what changed. */
export async function applyDeviceLinks(
  ruleId: number,
  before: readonly number[],
  after: readonly number[],
): Promise<{ add: number[]; remove: number[] }> {
  const changes = linkChanges(before, after);
  for (const deviceId of changes.add) await api.post('/permissions', { deviceId, notificationId: ruleId });
  for (const deviceId of changes.remove)
    await api.request('DELETE', '/permissions', { body: { deviceId, notificationId: ruleId } });
  return changes;
}
