// No gap in the live trail (issue #30): once the socket is open again after a close (server restart, network), the
// positions each device sent meanwhile are asked after the newest one the page shows (POST /{ns}/positions/catchup,
// bounded by the server) and applied in fix time order, before the socket's new messages (api/socket.ts holds them
// until this is done).
import type { Position } from '@rastro/domain';
import { ext, HttpError } from '../api/http.ts';
import { useLive } from './live.ts';

/** The fix time of the newest position shown, per device id: what the catch-up is asked after. */
export function shownFixTimes(positions: Record<number, Position>): Record<string, string> {
  const after: Record<string, string> = {};
  for (const key in positions) after[key] = positions[key].fixTime;
  return after;
}

/** The answer's positions newer than the one shown of their device, each once, in fix time order (then id). */
export function missedInOrder(shown: Record<number, Position>, answer: Position[]): Position[] {
  const byId = new Map<number, Position>();
  for (const p of answer) {
    const seen = shown[p.deviceId];
    if (!seen || Date.parse(p.fixTime) > Date.parse(seen.fixTime)) byId.set(p.id, p);
  }
  return [...byId.values()].sort((a, b) => Date.parse(a.fixTime) - Date.parse(b.fixTime) || a.id - b.id);
}

type Ask = (body: { after: Record<string, string> }) => Promise<Position[]>;

/**
 * Applies what the page missed to the live store (markers and the trail take every point in order) and returns
 * the devices it brought positions of: the reload of the latest positions leaves them alone (it would move their
 * marker past points the trail has not drawn, and a later catch-up would start after them). A server without the
 * route (gateway mode) or a failed call leaves that reload to do it all; a signed-out session is the caller's to
 * handle.
 */
export async function catchUpLive(
  ask: Ask = (body) => ext.post<Position[]>('/positions/catchup', body),
): Promise<Set<number>> {
  const shown = useLive.getState().positions;
  const after = shownFixTimes(shown);
  if (Object.keys(after).length === 0) return new Set();
  let answer: Position[];
  try {
    answer = await ask({ after });
  } catch (err) {
    if (err instanceof HttpError && err.status === 401) throw err;
    console.warn('live catch-up failed', err);
    return new Set();
  }
  const missed = missedInOrder(shown, Array.isArray(answer) ? answer : []);
  if (missed.length) useLive.getState().applyBatch({ positions: missed });
  return new Set(missed.map((p) => p.deviceId));
}
