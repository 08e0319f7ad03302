// The live socket (/api/socket, CONTRACT §5, SPEC §4 "Live socket"). Messages are coalesced per animation frame
// into one batch for the store, so 1,000 positions a second cost one store update per frame. On close it
// reconnects after 5 s and then reloads devices and positions, so nothing sent while it was down is missed.
import type { SocketMessage } from '@rastro/domain';
import { HttpError } from './http.ts';

/** SPEC §9: socket reconnect delay. */
export const RECONNECT_MS = 5000;
/** Close code the client uses on logout (as traccar-web). */
export const LOGOUT_CODE = 4000;

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
  onBatch: (batch: SocketMessage) => void;
  /** Called on every open; `reconnected` is true after a close (the caller resyncs then). */
  onOpen?: (reconnected: boolean) => void | Promise<void>;
  onConnectedChange?: (connected: boolean) => void;
  /** Schedules the per-frame flush (requestAnimationFrame in the browser). */
  schedule?: (fn: () => void) => void;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  reconnectMs?: number;
}

/** Merges messages: arrays are concatenated; positions keep only the last one per device. */
export function mergeMessages(messages: SocketMessage[]): SocketMessage {
  const out: SocketMessage = {};
  const positions = new Map<number, NonNullable<SocketMessage['positions']>[number]>();
  const devices = new Map<number, NonNullable<SocketMessage['devices']>[number]>();
  for (const m of messages) {
    if (m.positions) for (const p of m.positions) positions.set(p.deviceId, p);
    if (m.devices) for (const d of m.devices) devices.set(d.id, d);
    if (m.events) (out.events ??= []).push(...m.events);
    if (m.users) (out.users ??= []).push(...m.users);
    if (m.logs) (out.logs ??= []).push(...m.logs);
  }
  if (devices.size) out.devices = [...devices.values()];
  if (positions.size) out.positions = [...positions.values()];
  return out;
}

export class LiveSocket {
  private ws: WebSocketLike | null = null;
  private timer: unknown = null;
  private pending: SocketMessage[] = [];
  private flushScheduled = false;
  private stopped = true;
  private everClosed = false;
  /** No message received yet on the current connection. */
  private awaitingFirst = false;
  /** Number of opens so far (tests and the bench read it). */
  opens = 0;

  constructor(private readonly deps: LiveSocketDeps) {}

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
    if (this.timer !== null)
      (this.deps.clearTimer ?? clearTimeout)(this.timer as ReturnType<typeof setTimeout>);
    this.timer = null;
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
    this.deps.onConnectedChange?.(false);
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
    ws.onopen = () => {
      this.opens++;
      this.deps.onConnectedChange?.(true);
      void this.deps.onOpen?.(this.everClosed);
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
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.everClosed = true;
      this.deps.onConnectedChange?.(false);
      this.scheduleReconnect();
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.everClosed = true;
    const set = this.deps.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
    this.timer = set(() => {
      this.timer = null;
      if (!this.stopped) this.connect();
    }, this.deps.reconnectMs ?? RECONNECT_MS);
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const schedule =
      this.deps.schedule ??
      ((fn: () => void) =>
        typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && !document.hidden
          ? requestAnimationFrame(() => fn())
          : setTimeout(fn, 16));
    schedule(() => this.flush());
  }

  /** Applies everything received since the last frame as one batch. */
  flush(): void {
    this.flushScheduled = false;
    if (!this.pending.length) return;
    const batch = mergeMessages(this.pending);
    this.pending = [];
    this.deps.onBatch(batch);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The app's single socket, wired to the live store.

let instance: LiveSocket | null = null;

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
  const store = import('../stores/live.ts');
  const withStore = (fn: (live: Awaited<typeof store>) => void) => {
    store.then(fn).catch((err: unknown) => console.warn('live store not loaded', err));
  };
  instance = new LiveSocket({
    url: socketUrl,
    create: (url) => new WebSocket(url) as unknown as WebSocketLike,
    onBatch: (batch) => withStore((live) => live.useLive.getState().applyBatch(batch)),
    onConnectedChange: (on) => withStore((live) => live.useLive.getState().setConnected(on)),
    onOpen: async (reconnected) => {
      if (!reconnected) return;
      try {
        const live = await store;
        await live.resyncLive();
      } catch (err) {
        if (err instanceof HttpError && (err.status === 401 || err.status === 404)) {
          window.location.assign(`/login?to=${encodeURIComponent(window.location.pathname)}`);
        } else console.warn('live resync failed', err);
      }
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
