// A signed-in page's requests start before React's first render (main.tsx → startSignedInRequests) and the
// guard's first run takes them over instead of asking again (issue #13, first map in time).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Device, User } from '@rastro/domain';
import { fakeFetch, json, text } from '../components/testing.tsx';

const ana = { id: 3, name: 'Ana', administrator: false, attributes: {} } as unknown as User;
const devices = [{ id: 7, name: 'Truck', uniqueId: 't7', attributes: {} }] as unknown as Device[];

/** Sockets the page opened (the live socket connects as soon as the session is known). */
const sockets: string[] = [];
const opened: FakeSocket[] = [];
let closed = 0;
class FakeSocket {
  onopen: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  onclose = null;
  onerror = null;
  readyState = 1;
  constructor(url: string) {
    sockets.push(url);
    opened.push(this);
  }
  close() {
    closed++;
  }
  send() {}
}

/** Fresh modules for each test: the early requests are module state, taken once. */
async function load() {
  vi.resetModules();
  const actions = await import('../shell/sessionActions.ts');
  const { runGuard } = await import('./guard.ts');
  const { useLive } = await import('../stores/live.ts');
  const { useSession } = await import('../stores/session.ts');
  const { usePrefs } = await import('../stores/prefs.ts');
  const { closeSocket } = await import('../api/socket.ts');
  return { ...actions, runGuard, useLive, useSession, usePrefs, closeSocket };
}

/** The server's answers: server info always; the session and the devices as given. */
const server = (session: () => Response, list: () => Response) =>
  fakeFetch((url) =>
    url === '/api/server' ? json({ id: 1, attributes: {} }) : url === '/api/session' ? session() : list(),
  );

const until = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
};

beforeEach(() => {
  localStorage.clear();
  sockets.length = 0;
  opened.length = 0;
  closed = 0;
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => vi.unstubAllGlobals());

describe('startSignedInRequests', () => {
  it('asks for server info, session and devices at once; the guard passes without asking again', async () => {
    const m = await load();
    const f = server(
      () => json(ana),
      () => json(devices),
    );
    vi.stubGlobal('fetch', f.fn);
    const signedIn = m.startSignedInRequests({ devices: true });
    // all three left before any answer was read
    expect(f.calls.map((c) => c.url)).toEqual(['/api/server', '/api/session', '/api/devices']);
    expect(await signedIn).toBe(true);
    expect(await m.runGuard({ pathname: '/devices' }, m.guardEffects)).toEqual({ kind: 'pass' });
    expect(f.calls).toHaveLength(3);
    expect(m.useLive.getState().devices[7]?.name).toBe('Truck');
    expect(m.useSession.getState().user?.id).toBe(3);
    // the live socket connected without waiting for the map
    await until(() => sockets.length > 0);
    expect(sockets).toEqual([expect.stringMatching(/\/api\/socket$/)]);
    // a later navigation that needs the devices again asks again (the early answer is used once)
    expect(m.guardEffects.needsDevices?.()).toBe(false);
    await m.guardEffects.loadDevices();
    expect(f.calls.map((c) => c.url).slice(3)).toEqual(['/api/devices']);
    m.closeSocket();
  });

  it('a route the viewer may not open gets no early device list: a QR driver remembered in this browser, a refused screen (issue #28)', async () => {
    const driver = { ...ana, attributes: { 'rastro.isQrDriverId': 7 } } as unknown as User;
    const m = await load();
    const f = server(
      () => json(driver),
      () => json(devices),
    );
    vi.stubGlobal('fetch', f.fn);
    await m.startSignedInRequests({ devices: true, opens: () => false });
    // the session showed a QR driver: remembered, so the next page of this browser does not ask either
    expect(localStorage.getItem('driverSession')).toBe('1');
    expect(await m.runGuard({ pathname: '/devices' }, m.guardEffects)).toEqual({
      kind: 'redirect',
      to: '/qr-driver',
    });
    m.closeSocket();
    const before = sockets.length;
    const again = await load();
    const g = server(
      () => json(driver),
      () => json(devices),
    );
    vi.stubGlobal('fetch', g.fn);
    await again.startSignedInRequests({ devices: true, opens: () => false });
    expect(await again.runGuard({ pathname: '/devices' }, again.guardEffects)).toEqual({
      kind: 'redirect',
      to: '/qr-driver',
    });
    expect(g.calls.map((c) => c.url)).toEqual(['/api/server', '/api/session']);
    expect(sockets.length).toBe(before); // nor the socket's upgrade
  });

  it("the first load waits for the socket's first message (every latest position) before the shell shows", async () => {
    const m = await load();
    const f = server(
      () => json(ana),
      () => json(devices),
    );
    vi.stubGlobal('fetch', f.fn);
    void m.startSignedInRequests({ devices: true });
    let passed = false;
    const guard = m.runGuard({ pathname: '/devices' }, m.guardEffects).then((v) => {
      passed = true;
      return v;
    });
    await until(() => m.useLive.getState().devices[7] !== undefined);
    await new Promise((r) => setTimeout(r, 50));
    expect(passed).toBe(false); // devices in, positions not yet
    const position = { id: 70, deviceId: 7, latitude: -23.5, longitude: -46.6, attributes: {} };
    opened[0].onmessage?.({ data: JSON.stringify({ positions: [position] }) });
    expect(await guard).toEqual({ kind: 'pass' });
    expect(m.useLive.getState().positions[7]?.id).toBe(70); // the shell's first render has them
    m.closeSocket();
  });

  it('a socket that never answers holds the first load no longer than FIRST_POSITIONS_WAIT_MS', async () => {
    const m = await load();
    vi.stubGlobal(
      'fetch',
      server(
        () => json(ana),
        () => json(devices),
      ).fn,
    );
    void m.startSignedInRequests({ devices: true });
    expect(m.FIRST_POSITIONS_WAIT_MS).toBeLessThanOrEqual(1000);
    expect(await m.runGuard({ pathname: '/devices' }, m.guardEffects)).toEqual({ kind: 'pass' });
    expect(m.useLive.getState().positions).toEqual({});
    m.closeSocket();
  });

  it('with only a remember-me token: the devices refused before it signed in are asked again', async () => {
    const m = await load();
    m.usePrefs.getState().setRememberme('tok');
    let signedIn = false;
    const f = fakeFetch((url) => {
      if (url === '/api/server') return json({ id: 1, attributes: {} });
      if (url === '/api/session') return text('', 404);
      if (url === '/api/session?token=tok') {
        signedIn = true;
        return json(ana);
      }
      return signedIn ? json(devices) : text('Unauthorized', 401);
    });
    vi.stubGlobal('fetch', f.fn);
    expect(await m.startSignedInRequests({ devices: true })).toBe(true);
    expect(await m.runGuard({ pathname: '/devices' }, m.guardEffects)).toEqual({ kind: 'pass' });
    expect(f.calls.map((c) => c.url).filter((u) => u === '/api/devices')).toHaveLength(2);
    expect(Object.keys(m.useLive.getState().devices)).toEqual(['7']);
    m.closeSocket();
  });

  it('nobody signed in: the guard sends to /login, the refused devices answer is dropped, no socket opened', async () => {
    const m = await load();
    const f = server(
      () => text('Unauthorized', 401),
      () => text('Unauthorized', 401),
    );
    vi.stubGlobal('fetch', f.fn);
    expect(await m.startSignedInRequests({ devices: true })).toBe(false);
    expect(await m.runGuard({ pathname: '/devices' }, m.guardEffects)).toEqual({
      kind: 'redirect',
      to: '/login?to=%2Fdevices',
    });
    expect(f.calls.map((c) => c.url)).toEqual(['/api/server', '/api/session', '/api/devices']);
    expect(m.useLive.getState().devices).toEqual({});
    // the live socket opens once the session is known: none for nobody
    await new Promise((r) => setTimeout(r, 20));
    expect(sockets).toEqual([]);
  });

  it('a server that does not answer: maintenance, as when the guard asks itself', async () => {
    const m = await load();
    vi.stubGlobal('fetch', (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch);
    expect(await m.startSignedInRequests({ devices: true })).toBe(false);
    expect(await m.runGuard({ pathname: '/devices' }, m.guardEffects)).toEqual({
      kind: 'redirect',
      to: '/maintenance',
    });
  });

  it('devices that fail to load: maintenance, and the socket opened meanwhile is closed again', async () => {
    const m = await load();
    const f = server(
      () => json(ana),
      () => text('boom', 500),
    );
    vi.stubGlobal('fetch', f.fn);
    expect(await m.startSignedInRequests({ devices: true })).toBe(true);
    expect(await m.runGuard({ pathname: '/devices' }, m.guardEffects)).toEqual({
      kind: 'redirect',
      to: '/maintenance',
    });
    await until(() => closed > 0);
    expect(sockets).toHaveLength(1);
    expect(closed).toBe(1);
  });

  it('a driver page asks for server info and session only', async () => {
    const m = await load();
    const f = server(
      () => json(ana),
      () => json(devices),
    );
    vi.stubGlobal('fetch', f.fn);
    expect(await m.startSignedInRequests({ devices: false })).toBe(true);
    expect(f.calls.map((c) => c.url)).toEqual(['/api/server', '/api/session']);
    await new Promise((r) => setTimeout(r, 20));
    expect(sockets).toEqual([]);
  });
});
