// No gap in the live trail (issue #30): a page whose socket was closed (server restart, network) asks, once it is
// open again, for what it missed. POST /{ns}/positions/catchup {after: {deviceId: fixTime}}, with the fix time of
// the newest position it shows per device, answers the positions after it of each device the caller's socket
// serves whose latest position is newer: at most CATCHUP_PER_DEVICE per device (the newest) and CATCHUP_MAX in
// all, in fix time order, so the page draws them before the socket's new ones.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Position } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { positionsAfter } from '../db/repos/positions.ts';
import { edge, edgeValue } from '../edge.ts';
import { requireUser } from '../traccar/auth.ts';
import type { LiveCore } from './ingest.ts';
import { positionFromRow, type PositionDbRow } from './json.ts';

/** Positions per device a page catches up on (its trail keeps 200). */
export const CATCHUP_PER_DEVICE = 200;
/** Positions in one answer. */
const CATCHUP_MAX = 20_000;
/** Devices one request may name. */
const CATCHUP_DEVICES = 20_000;

const catchupBody = z.object({
  after: z
    .record(
      z.string().regex(/^\d{1,15}$/),
      z.string().refine((s) => s.length <= 40 && Number.isFinite(Date.parse(s))),
    )
    .refine((m) => Object.keys(m).length <= CATCHUP_DEVICES),
});

export function registerCatchup(app: FastifyInstance, ctx: AppContext, live: LiveCore): void {
  const spec = edge({ body: catchupBody, need: 'signedIn', invalid: 'positions.catchupBody' });
  app.post(`/${ctx.config.ns}/positions/catchup`, spec, async (req) => {
    const user = await requireUser(ctx, req);
    const { after } = edgeValue(catchupBody, req.body);
    await live.settle();
    const mine = (await live.cache.freshAsync()).devicesOf(user.id);
    const since = new Map<number, number>();
    await live.loadLatestAsync(
      Object.keys(after)
        .map(Number)
        .filter((id) => mine.has(id)),
    );
    for (const [key, time] of Object.entries(after)) {
      const id = Number(key);
      const last = mine.has(id) ? live.latestInMemory(id) : null;
      const t = Date.parse(time);
      // only devices whose latest position is newer than the page's: the others have nothing to catch up
      if (last && Date.parse(last.fixTime) > t) since.set(id, t);
    }
    if (since.size === 0) return [];
    let first = Infinity;
    for (const t of since.values()) first = Math.min(first, t);
    const from = new Date(first).toISOString();
    const rows = (await positionsAfter(
      ctx.store.sql,
      [...since.keys()],
      from,
      CATCHUP_MAX,
    )) as PositionDbRow[];
    const kept = new Map<number, number>();
    const out: Position[] = [];
    for (const row of rows) {
      const n = kept.get(row.deviceId) ?? 0;
      if (n >= CATCHUP_PER_DEVICE || Date.parse(row.fixTime) <= since.get(row.deviceId)!) continue;
      kept.set(row.deviceId, n + 1);
      out.push(positionFromRow(row));
    }
    return out.reverse();
  });
}
