// The reconnect's catch-up (issue #30): what each device sent while the socket was closed is asked after the newest
// position shown and merged in fix time order before the socket's messages, so the trail has every point.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Position } from '@rastro/domain';
import { api, HttpError } from '../api/http.ts';
import { resyncLive, useLive } from './live.ts';
import { catchUpLive, missedInOrder, shownFixTimes } from './liveCatchUp.ts';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 10, 0, s)).toISOString();
const pos = (deviceId: number, id: number, s: number) =>
  ({ id, deviceId, fixTime: at(s), latitude: 1, longitude: s, attributes: {} }) as unknown as Position;

beforeEach(() => {
  useLive.getState().clear();
  useLive.getState().setTrail(null);
});

describe('missedInOrder', () => {
  it('keeps the positions newer than the one shown, each once, in fix time order', () => {
    const shown = { 1: pos(1, 10, 10), 2: pos(2, 20, 5) };
    const answer = [
      pos(1, 13, 40),
      pos(2, 21, 6),
      pos(1, 11, 20),
      pos(1, 10, 10),
      pos(1, 12, 30),
      pos(1, 11, 20),
    ];
    expect(missedInOrder(shown, answer).map((p) => p.id)).toEqual([21, 11, 12, 13]);
    expect(missedInOrder(shown, [pos(3, 30, 1)]).map((p) => p.id)).toEqual([30]);
  });

  it('asks after the fix time of the newest position shown of each device', () => {
    expect(shownFixTimes({ 1: pos(1, 10, 10), 7: pos(7, 70, 3) })).toEqual({ 1: at(10), 7: at(3) });
  });
});

describe('catchUpLive', () => {
  it('draws the missed positions in order into the trail, then the socket’s newer ones after them', async () => {
    const s = useLive.getState();
    s.applyBatch({ positions: [pos(1, 10, 10), pos(2, 20, 10)] });
    s.setTrail(1);
    const ask = vi.fn(async () => [pos(1, 13, 40), pos(1, 11, 20), pos(2, 21, 15), pos(1, 12, 30)]);
    // the devices it brought positions of (the reload of the latest positions leaves them alone)
    expect(await catchUpLive(ask)).toEqual(new Set([1, 2]));
    expect(ask).toHaveBeenCalledWith({ after: { 1: at(10), 2: at(10) } });
    // the socket's first message after the reconnect repeats the latest, then a new one comes
    useLive.getState().applyBatch({ positions: [pos(1, 13, 40), pos(2, 21, 15)] });
    useLive.getState().applyBatch({ positions: [pos(1, 14, 50)] });
    const st = useLive.getState();
    expect(st.trail.map(([lon]) => lon)).toEqual([10, 20, 30, 40, 50]);
    expect(st.positions[1].id).toBe(14);
    expect(st.positions[2].id).toBe(21);
  });

  it('a server without the route leaves the store as it was; a signed-out session is thrown', async () => {
    useLive.getState().applyBatch({ positions: [pos(1, 10, 10)] });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const none = await catchUpLive(async () => {
      throw new HttpError(404, 'Not Found');
    });
    expect(none.size).toBe(0);
    expect(useLive.getState().positions[1].id).toBe(10);
    warn.mockRestore();
    await expect(
      catchUpLive(async () => {
        throw new HttpError(401, 'Unauthorized');
      }),
    ).rejects.toBeInstanceOf(HttpError);
  });
});

describe('resyncLive after a catch-up', () => {
  it('reloads the latest positions of the devices the catch-up did not bring', async () => {
    const get = vi.spyOn(api, 'get').mockImplementation(async (path: string, query?: unknown) => {
      if (path === '/devices')
        return [1, 2, 3].map((id) => ({ id, name: `D${id}`, positionId: id * 10 + 3, attributes: {} }));
      return ((query as { id: number[] }).id ?? []).map((id) => pos(Math.floor(id / 10), id, id));
    });
    await resyncLive(new Set([1]));
    expect(get).toHaveBeenCalledWith('/positions', { id: [23, 33] });
    expect(Object.keys(useLive.getState().positions).map(Number)).toEqual([2, 3]);
    get.mockRestore();
  });
});
