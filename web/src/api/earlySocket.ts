// The live socket opened by a signed-in page's first module (shell/sessionActions.ts startSignedInRequests), with
// the session request rather than after it and after the socket's code: the server starts building its first
// message (every latest position, 5 MB at 10,000 devices) a few hundred ms sooner. What it receives is kept until
// LiveSocket adopts it (api/socket.ts); a page whose session turns out absent closes it again.

/** The live socket's address on this origin. */
export function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}/api/socket`;
}

export interface EarlySocket {
  ws: WebSocket;
  /** Text messages received before adoption, in order. */
  received: string[];
  closed: boolean;
}

let early: EarlySocket | null = null;

export function openEarlySocket(): void {
  try {
    const ws = new WebSocket(socketUrl());
    const e: EarlySocket = { ws, received: [], closed: false };
    ws.onmessage = (ev: MessageEvent) => {
      if (typeof ev.data === 'string') e.received.push(ev.data);
    };
    ws.onclose = () => {
      e.closed = true;
    };
    early = e;
  } catch {
    early = null; // the live socket opens its own
  }
}

/** The early socket, once (null when none is open). */
export function takeEarlySocket(): EarlySocket | null {
  const e = early;
  early = null;
  return e && !e.closed ? e : null;
}

/** Closes an early socket nobody adopted (signed out, or the page failed to start). */
export function dropEarlySocket(): void {
  early?.ws.close();
  early = null;
}
