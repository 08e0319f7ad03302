// The live socket (/api/socket, CONTRACT §5, SPEC §4 "Live socket"). Messages are coalesced per animation frame
// into one batch for the store, so 1,000 positions a second cost one store update per frame, and batches are paced
// by what they cost: after a batch that took d ms to apply the next waits (1 / APPLY_SHARE − 1) × d, so live updates
// never take more than a quarter of the main thread (a large fleet's batches come a few times a second, a small
// one's every frame). On close it reconnects after 5 s, then catches up on the positions each device sent while it
// was down (stores/liveCatchUp.ts, issue #30) and reloads devices and positions; the socket's messages wait until
// then, so the live trail gets every position, in order. A socket the server closed as signed out, or one that
// never opened (a refused upgrade looks like a lost network), first asks whether the session is still there: when it
// is gone the socket stops and the page is told (onSessionEnded) instead of retrying every 5 s.
import type { SocketMessage } from '@rastro/domain';
import { api, isAuthFailure } from './http.ts';

/** SPEC §9: socket reconnect delay. */
export const RECONNECT_MS = 5000;
/** Close code the client uses on logout (as traccar-web). */
export const LOGOUT_CODE = 4000;
/** Close code of the server when it ends a session's sockets (sign-out elsewhere, a revoked link). */
export const SIGNED_OUT_CODE = 4001;
/** The main thread's share live updates may take (see the header). */
export const APPLY_SHARE = 0.25;
/** The longest a reconnect's catch-up holds the socket's messages back. */
export const CATCHUP_HOLD_MS = 10_000;

export interface WebSocketLike {
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  close(code?: number): void;
  send(data: string): void;
}

export interface LiveSocketDeps {
  url: () => string;
  create: (url: string) => WebSocketLike;
  /** Applies a batch; synchronous, so that its cost paces the next one. */
  onBatch: (batch: SocketMessage) => void;
  /**
   * Called on every open; `reconnected` is true after a close (the caller catches up and resyncs then: the
   * messages received meanwhile are applied once its promise settles, or after CATCHUP_HOLD_MS).
   */
  onOpen?: (reconnected: boolean) => void | Promise<void>;
  /**
   * Asked after a close with SIGNED_OUT_CODE or of a socket that never opened: resolves true when the session is
   * gone (the socket then stops); false or a rejection (the server unreachable) reconnects after RECONNECT_MS.
   */
  sessionGone?: () => Promise<boolean>;
  /** Schedules the per-frame flush (requestAnimationFrame in the browser). */
  schedule?: (fn: () => void) => void;
  /** Clock in ms (performance.now in the browser). */
  now?: () => number;
}

/** The next frame while the page shows, else a 16 ms timer (a hidden tab gets no frames). */
const nextFrame = (fn: () => void) =>
  typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && !document.hidden
    ? requestAnimationFrame(() => fn())
    : setTimeout(fn, 16);

/**
 * Merges messages: arrays are concatenated; positions keep their order, each position once (the last copy), so the
 * live trail gets every point; devices keep the last state of each; a device removed (deleted or unlinked) drops its earlier updates and positions.
 */
export function mergeMessages(messages: SocketMessage[]): SocketMessage {
  const out: SocketMessage = {};
  const positions = new Map<number, NonNullable<SocketMessage['positions']>[number]>();
  const devices = new Map<number, NonNullable<SocketMessage['devices']>[number]>();
  const removed = new Set<number>();
  for (const m of messages) {
    if (m.positions) for (const p of m.positions) positions.set(p.id, p);
    // a device removed after its update is gone; one updated after its removal is back
    for (const d of m.devices ?? []) {
      devices.set(d.id, d);
      removed.delete(d.id);
    }
    for (const id of m.removedDevices ?? []) {
      removed.add(id);
      devices.delete(id);
    }
    if (m.events) (out.events ??= []).push(...m.events);
    if (m.users) (out.users ??= []).push(...m.users);
    if (m.logs) (out.logs ??= []).push(...m.logs);
    if (m.alarms) (out.alarms ??= []).push(...m.alarms);
  }
  if (devices.size) out.devices = [...devices.values()];
  if (positions.size) out.positions = [...positions.values()].filter((p) => !removed.has(p.deviceId));
  if (!out.positions?.length) delete out.positions;
  if (removed.size) out.removedDevices = [...removed];
  return out;
}

export class LiveSocket {
  private ws: WebSocketLike | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending: SocketMessage[] = [];
  private flushScheduled = false;
  /** The next batch is not applied before this time (see APPLY_SHARE). */
  private nextApplyAt = 0;
  private stopped = true;
  private everClosed = false;
  /** No message received yet on the current connection. */
  private awaitingFirst = false;
  /** A reconnect's catch-up is running: messages wait in `pending` (see onOpen). */
  private holding = false;
  /** Number of opens so far (tests and the bench read it). */
  opens = 0;

  private readonly schedule: (fn: () => void) => void;
  private readonly now: () => number;

  constructor(private readonly deps: LiveSocketDeps) {
    this.schedule = deps.schedule ?? nextFrame;
    this.now = deps.now ?? (() => performance.now());
  }

  get running(): boolean {
    return !this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.everClosed = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = null;
      ws.onmessage = null;
      ws.onerror = null;
      try {
        ws.close(LOGOUT_CODE);
      } catch {
        /* already closed */
      }
    }
  }

  private connect(): void {
    let ws: WebSocketLike;
    try {
      ws = this.deps.create(this.deps.url());
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.awaitingFirst = true;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.opens++;
      const done = this.deps.onOpen?.(this.everClosed);
      if (this.everClosed && done instanceof Promise) this.hold(done);
    };
    ws.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      let msg: SocketMessage;
      try {
        msg = JSON.parse(ev.data) as SocketMessage;
      } catch {
        return;
      }
      if (!msg || typeof msg !== 'object' || Object.keys(msg).length === 0) return; // keepalive
      this.pending.push(msg);
      if (this.holding) return;
      // the first message of a connection carries every latest position: applied at once, not at the next
      // frame (which the page's first render and the map's start can hold back by a few hundred ms)
      if (this.awaitingFirst) {
        this.awaitingFirst = false;
        this.flush();
      } else this.scheduleFlush();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.everClosed = true;
      const code = (ev as { code?: unknown } | null)?.code;
      const ask = this.deps.sessionGone;
      if (!ask || (opened && code !== SIGNED_OUT_CODE)) return this.scheduleReconnect();
      ask().then(
        (gone) => (gone ? this.stop() : this.scheduleReconnect()),
        () => this.scheduleReconnect(),
      );
    };
  }

  /** Holds the socket's messages until the reconnect's catch-up is applied (at most CATCHUP_HOLD_MS). */
  private hold(done: Promise<void>): void {
    this.holding = true;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.holding = false;
      this.awaitingFirst = false;
      if (this.pending.length) this.flush();
    };
    const timer = setTimeout(release, CATCHUP_HOLD_MS);
    const settled = () => {
      clearTimeout(timer);
      release();
    };
    void done.then(settled, settled);
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.everClosed = true;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.stopped) this.connect();
    }, RECONNECT_MS);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const wait = this.nextApplyAt - this.now();
    if (wait <= 0) this.schedule(() => this.flush());
    else setTimeout(() => this.schedule(() => this.flush()), wait);
  }

  /** Applies everything received since the last batch as one batch. */
  flush(): void {
    this.flushScheduled = false;
    if (!this.pending.length) return;
    const batch = mergeMessages(this.pending);
    this.pending = [];
    const start = this.now();
    this.deps.onBatch(batch);
    const end = this.now();
    this.nextApplyAt = end + (end - start) * (1 / APPLY_SHARE - 1);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The app's single socket, wired to the live store.

let instance: LiveSocket | null = null;

let endedHandler: (() => void) | null = null;
/**
 * What the page does when the socket finds the session ended (the shell: a share guest's "session expired"
 * warning, a reload for anyone else); null: back to the sign-in page.
 */
export function onSessionEnded(handler: (() => void) | null): void {
  endedHandler = handler;
}

function sessionEnded(): void {
  if (endedHandler) endedHandler();
  else window.location.assign(`/login?to=${encodeURIComponent(window.location.pathname)}`);
}

let firstBatchApplied = false;
let firstBatchIn!: () => void;
const firstBatch = new Promise<void>((resolve) => (firstBatchIn = resolve));

/** Whether the socket's first message is in the live store already (read synchronously: the first map). */
export function firstPositionsIn(): boolean {
  return firstBatchApplied;
}

/** Resolves once the socket's first message (every device's latest position) is in the live store. */
export function firstPositions(): Promise<void> {
  return firstBatch;
}

/** The live socket's address on this origin. */
function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/api/socket`;
}

/**
 * Opens the live socket once (idempotent). The store module is loaded lazily to keep this file light; the socket
 * connects without waiting for it (what arrives meanwhile is applied, in order, once it is there).
 */
export async function openSocket(): Promise<LiveSocket> {
  if (instance?.running) return instance;
  let loaded: typeof import('../stores/live.ts') | null = null;
  const store = import('../stores/live.ts').then((m) => (loaded = m));
  store.catch(() => undefined); // reported where it is used
  // once the store is there a batch is applied synchronously (its cost paces the next one); before, in order
  const withStore = (fn: (live: Awaited<typeof store>) => void) => {
    if (loaded) fn(loaded);
    else store.then(fn).catch((err: unknown) => console.warn('live store not loaded', err));
  };
  instance = new LiveSocket({
    url: socketUrl,
    create: (url) => new WebSocket(url) as unknown as WebSocketLike,
    onBatch: (batch) =>
      withStore((live) => {
        live.useLive.getState().applyBatch(batch);
        firstBatchApplied = true;
        firstBatchIn();
      }),
    onOpen: async (reconnected) => {
      if (!reconnected) return;
      try {
        const live = await store;
        // what each device sent while the socket was closed, drawn in order before the socket's new messages
        const caughtUp = await (await import('../stores/liveCatchUp.ts')).catchUpLive();
        await live.resyncLive(caughtUp);
      } catch (err) {
        if (isAuthFailure(err)) {
          instance?.stop();
          sessionEnded();
        } else console.warn('live resync failed', err);
      }
    },
    sessionGone: async () => {
      try {
        await api.get('/session');
        return false;
      } catch (err) {
        if (!isAuthFailure(err)) throw err;
      }
      sessionEnded();
      return true;
    },
  });
  instance.start();
  return instance;
}

/** Close the live socket (logout). Safe to call when no socket is open. */
export function closeSocket(): void {
  instance?.stop();
  instance = null;
}
