let socket: WebSocket | null = null;

/** Close the live socket (logout). Safe to call when no socket is open. */
export function closeSocket(): void {
  if (socket) {
    socket.onclose = null;
    socket.close();
    socket = null;
  }
}
