// Who and what a report (and the insights built on the same rules) covers: the devices of the request — explicit
// ids, groups with their sub-groups, or every device the caller sees — each checked against the caller, and the
// time zone its days are cut in.
import type { AppContext } from '../../context.ts';
import type { UserRow } from '../../traccar/auth.ts';
import { checkSee, visibleDeviceIds, withSubgroups } from '../../traccar/access.ts';
import type { LiveCore } from '../ingest.ts';
import { validTimeZone, type ReportDevice } from './compute.ts';

/** A query parameter given once, repeated or not at all, as a list. */
export const list = (v: unknown) => (v === undefined || v === '' ? [] : Array.isArray(v) ? v : [v]);
export async function reportDevices(
  ctx: AppContext,
  live: LiveCore,
  user: UserRow,
  q: { deviceId: number[]; groupId: number[] },
): Promise<ReportDevice[]> {
  const cache = await live.cache.freshAsync(); // read on the pool on PostgreSQL, the main thread free (issue #30)
  const idSet = new Set<number>();
  for (const id of q.deviceId) {
    await checkSee(ctx, user, 'device', id);
    if (cache.device(id)) idSet.add(id);
  }
  if (q.groupId.length) {
    for (const g of q.groupId) await checkSee(ctx, user, 'group', g);
    const groups = await withSubgroups(ctx.store.sql, q.groupId);
    const visible = user.administrator ? null : new Set(await visibleDeviceIds(ctx, user));
    for (const d of cache.devices.values()) {
      if (groups.has(d.groupId) && (!visible || visible.has(d.id))) idSet.add(d.id);
    }
  }
  if (!q.deviceId.length && !q.groupId.length)
    for (const id of await visibleDeviceIds(ctx, user)) idSet.add(id);
  return [...idSet]
    .sort((a, b) => a - b)
    .flatMap((id) => {
      const d = cache.device(id);
      return d ? [{ id, name: d.name, attributes: cache.deviceAttrs.get(id) ?? {} }] : [];
    });
}

/**
 * The caller's time zone (user attribute, else the server's, else UTC), from the cache as last read: its callers
 * read it after reportDevices made it fresh, and a time zone changed meanwhile is the next request's.
 */
export function reportTimeZone(live: LiveCore, user: UserRow): string {
  const cache = live.cache;
  const candidates = [cache.userAttrs.get(user.id)?.timezone, cache.serverAttrs.timezone];
  for (const tz of candidates) if (typeof tz === 'string' && tz && validTimeZone(tz)) return tz;
  return 'UTC';
}
