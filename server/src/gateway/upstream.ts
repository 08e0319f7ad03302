// Where the upstream Traccar is: imported by every gateway-mode module (a file of its own, so none of them needs
// gateway/index.ts, which registers the proxy).

/** Upstream base: origin plus any path prefix (a Traccar served under /traccar keeps it). */
export function upstreamOf(traccarUrl: string): { origin: string; basePath: string } {
  const u = new URL(traccarUrl);
  return { origin: u.origin, basePath: u.pathname.replace(/\/+$/, '') };
}
