import { describe, expect, it, vi } from 'vitest';
import type { Position, SocketMessage } from '@rastro/domain';
import {
  APPLY_SHARE,
  CATCHUP_HOLD_MS,
  LiveSocket,
  LOGOUT_CODE,
  mergeMessages,
  RECONNECT_MS,
  SIGNED_OUT_CODE,
  type LiveSocketDeps,
  type WebSocketLike,
} from './socket.ts';

class FakeWs implements WebSocketLike {
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  closedWith: number | undefined;
  constructor(readonly url: string) {}
  close(code?: number) {
    this.closedWith = code;
  }
  send() {}
  open() {
    this.onopen?.({});
  }
  message(m: unknown) {
    this.onmessage?.({ data: JSON.stringify(m) });
  }
  drop(code?: number) {
    this.onclose?.(code === undefined ? {} : { code });
  }
}

const pos = (deviceId: number, id: number) => ({ id, deviceId, latitude: 1, longitude: 2 }) as Position;

function setup(
  options: {
    now?: () => number;
    cost?: () => number;
    onOpen?: LiveSocketDeps['onOpen'];
    sessionGone?: LiveSocketDeps['sessionGone'];
  } = {},
) {
  vi.useFakeTimers();
  const sockets: FakeWs[] = [];
  const batches: SocketMessage[] = [];
  const frames: Array<() => void> = [];
  const opens: boolean[] = [];
  const s = new LiveSocket({
    url: () => 'ws://x/api/socket',
    create: (url) => {
      const w = new FakeWs(url);
      sockets.push(w);
      return w;
    },
    onBatch: (b) => {
      batches.push(b);
      options.cost?.();
    },
    onOpen: (r) => {
      opens.push(r);
      return options.onOpen?.(r);
    },
    schedule: (fn) => frames.push(fn),
    now: options.now,
    sessionGone: options.sessionGone,
  });
  const runFrame = () => frames.splice(0).forEach((f) => f());
  return { s, sockets, batches, opens, frames, runFrame };
}

describe('LiveSocket', () => {
  it('applies the first message of a connection at once (every latest position), on each reconnection too', () => {
    const { s, sockets, batches, runFrame } = setup();
    s.start();
    sockets[0].open();
    sockets[0].message({}); // a keepalive is not that message
    expect(batches).toHaveLength(0);
    sockets[0].message({ positions: [pos(1, 10), pos(2, 20)] });
    expect(batches).toHaveLength(1);
    expect(batches[0].positions!.map((p) => p.id)).toEqual([10, 20]);
    sockets[0].message({ positions: [pos(1, 11)] });
    expect(batches).toHaveLength(1); // later ones wait for the frame
    runFrame();
    expect(batches).toHaveLength(2);
    sockets[0].drop();
    vi.advanceTimersByTime(RECONNECT_MS);
    sockets[1].open();
    sockets[1].message({ positions: [pos(1, 12)] });
    expect(batches).toHaveLength(3);
    vi.useRealTimers();
  });

  it('coalesces the messages of one frame into one batch, every position in order (the live trail)', () => {
    const { s, sockets, batches, runFrame } = setup();
    s.start();
    sockets[0].open();
    sockets[0].message({ positions: [pos(1, 1)] }); // the first: applied at once (test above)
    batches.length = 0;
    sockets[0].message({ positions: [pos(1, 10)] });
    sockets[0].message({ devices: [{ id: 1 }] });
    sockets[0].message({ positions: [pos(1, 11), pos(2, 20)] });
    sockets[0].message({}); // keepalive ignored
    expect(batches).toHaveLength(0);
    runFrame();
    expect(batches).toHaveLength(1);
    expect(batches[0].positions!.map((p) => p.id)).toEqual([10, 11, 20]);
    expect(batches[0].devices).toHaveLength(1);
    vi.useRealTimers();
  });

  it('after a reconnect, holds the socket messages until the catch-up is applied, then applies them in order', async () => {
    const order: string[] = [];
    let caughtUp: () => void = () => undefined;
    const { s, sockets, batches } = setup({
      onOpen: (reconnected) =>
        reconnected
          ? new Promise<void>((done) => {
              caughtUp = () => {
                order.push('catch-up');
                done();
              };
            })
          : undefined,
    });
    s.start();
    sockets[0].open();
    sockets[0].message({ positions: [pos(1, 1)] });
    sockets[0].drop();
    vi.advanceTimersByTime(RECONNECT_MS);
    sockets[1].open();
    sockets[1].message({ positions: [pos(1, 5)] }); // the latest positions (first message)
    sockets[1].message({ positions: [pos(1, 6)] });
    expect(batches).toHaveLength(1); // only the first connection's
    caughtUp();
    await Promise.resolve();
    await Promise.resolve();
    expect(order).toEqual(['catch-up']);
    expect(batches).toHaveLength(2);
    expect(batches[1].positions!.map((p) => p.id)).toEqual([5, 6]);
    vi.useRealTimers();
  });

  it(`a catch-up that never ends holds the socket ${CATCHUP_HOLD_MS / 1000} s at most`, () => {
    const { s, sockets, batches } = setup({
      onOpen: (reconnected) => (reconnected ? new Promise<void>(() => undefined) : undefined),
    });
    s.start();
    sockets[0].open();
    sockets[0].drop();
    vi.advanceTimersByTime(RECONNECT_MS);
    sockets[1].open();
    sockets[1].message({ positions: [pos(1, 5)] });
    vi.advanceTimersByTime(CATCHUP_HOLD_MS - 1);
    expect(batches).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(batches.map((b) => b.positions!.map((p) => p.id))).toEqual([[5]]);
    vi.useRealTimers();
  });

  it('reconnects 5 s after a close and reports the reopen as a reconnection (resync)', () => {
    const { s, sockets, opens } = setup();
    s.start();
    sockets[0].open();
    expect(opens).toEqual([false]);
    sockets[0].drop();
    vi.advanceTimersByTime(RECONNECT_MS - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1].open();
    expect(opens).toEqual([false, true]);
    vi.useRealTimers();
  });

  it('keeps retrying every 5 s while the server is down', () => {
    const { s, sockets } = setup();
    s.start();
    sockets[0].drop(); // never opened
    vi.advanceTimersByTime(RECONNECT_MS);
    sockets[1].drop();
    vi.advanceTimersByTime(RECONNECT_MS);
    expect(sockets).toHaveLength(3);
    vi.useRealTimers();
  });

  it('a socket that never opened, or one the server signed out (4001), asks for the session: gone, it stops', async () => {
    const asked: string[] = [];
    let gone = false;
    const { s, sockets } = setup({
      sessionGone: () => {
        asked.push('asked');
        return Promise.resolve(gone);
      },
    });
    s.start();
    sockets[0].open();
    sockets[0].drop(1006); // an opened socket lost: the server restarting, the network; no question
    expect(asked).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(RECONNECT_MS);
    sockets[1].drop(); // the upgrade refused or the server still down: asked; the session is there, so retried
    expect(asked).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(RECONNECT_MS);
    expect(sockets).toHaveLength(3);
    sockets[2].open();
    gone = true;
    sockets[2].drop(SIGNED_OUT_CODE); // the server ended the session (a revoked link): asked, gone, stopped
    expect(asked).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(RECONNECT_MS * 3);
    expect(sockets).toHaveLength(3);
    expect(s.running).toBe(false);
    vi.useRealTimers();
  });

  it('a session question that fails (the server unreachable) reconnects as before', async () => {
    const { s, sockets } = setup({ sessionGone: () => Promise.reject(new Error('network')) });
    s.start();
    sockets[0].drop();
    await vi.advanceTimersByTimeAsync(RECONNECT_MS);
    expect(sockets).toHaveLength(2);
    vi.useRealTimers();
  });

  it('stop() closes with the logout code and never reconnects', () => {
    const { s, sockets } = setup();
    s.start();
    sockets[0].open();
    s.stop();
    expect(sockets[0].closedWith).toBe(LOGOUT_CODE);
    vi.advanceTimersByTime(RECONNECT_MS * 3);
    expect(sockets).toHaveLength(1);
    vi.useRealTimers();
  });

  it('mergeMessages: a removal drops the earlier updates and positions of its device, a later update brings it back', () => {
    const m = mergeMessages([
      {
        devices: [{ id: 1 }, { id: 2 }],
        positions: [
          { id: 7, deviceId: 1 },
          { id: 8, deviceId: 2 },
        ],
      },
      { removedDevices: [1, 3] },
      { devices: [{ id: 3 }] },
    ] as SocketMessage[]);
    expect(m.devices!.map((d) => d.id)).toEqual([2, 3]);
    expect(m.positions!.map((p) => p.id)).toEqual([8]);
    expect(m.removedDevices).toEqual([1]);
  });

  it('mergeMessages concatenates events and users in order', () => {
    const m = mergeMessages([
      { events: [{ id: 1 }] },
      { events: [{ id: 2 }], users: [{ id: 5 }] },
    ] as SocketMessage[]);
    expect(m.events!.map((e) => e.id)).toEqual([1, 2]);
    expect(m.users).toHaveLength(1);
  });

  it(`paces batches by their cost: after one that took 40 ms the next waits ${40 * (1 / APPLY_SHARE - 1)} ms, cheap ones every frame`, () => {
    let clock = 0;
    let cost = 40;
    const { s, sockets, batches, frames, runFrame } = setup({
      now: () => clock,
      cost: () => (clock += cost), // the store update and its subscribers
    });
    const wait = (ms: number) => {
      clock += ms;
      vi.advanceTimersByTime(ms);
    };
    s.start();
    sockets[0].open();
    sockets[0].message({ positions: [pos(1, 1)] }); // the first message: at once, 40 ms
    expect(batches).toHaveLength(1);
    sockets[0].message({ positions: [pos(1, 2)] });
    sockets[0].message({ positions: [pos(2, 3)] });
    expect(frames).toHaveLength(0); // not even a frame asked for yet
    wait(119);
    expect(frames).toHaveLength(0);
    wait(1);
    runFrame();
    expect(batches).toHaveLength(2); // both messages in one batch, 120 ms after the first ended
    expect(batches[1].positions!.map((p) => p.id)).toEqual([2, 3]);
    cost = 0; // cheap batches (a small fleet): every frame
    wait(120);
    sockets[0].message({ positions: [pos(1, 4)] });
    runFrame();
    sockets[0].message({ positions: [pos(1, 5)] });
    runFrame();
    expect(batches).toHaveLength(4);
    s.stop();
    vi.useRealTimers();
  });
});
