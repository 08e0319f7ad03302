import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@rastro/domain';
import { fakeFetch, json, text } from '../components/testing.tsx';
import { usePrefs } from '../stores/prefs.ts';
import { useSession } from '../stores/session.ts';
import { i18n, setLocale } from '../i18n/index.ts';
import {
  applyUserLocale,
  DRIVER_VIEW_KEY,
  FIRST_POSITIONS_WAIT_MS,
  guardEffects,
  LOGIN_WAIT_FLEET_MAX,
  login,
  logout,
  restoreSession,
} from './sessionActions.ts';

// the live socket opened after a sign-in (login below); the logout closes it
const socket = vi.hoisted(() => ({
  openSocket: vi.fn(async () => undefined),
  closeSocket: vi.fn(),
  firstPositions: vi.fn(() => Promise.resolve()),
}));
vi.mock('../api/socket.ts', () => socket);

const ana = { id: 3, name: 'Ana', attributes: {} } as unknown as User;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  usePrefs.getState().reload();
  useSession.setState({ user: null });
});
afterEach(() => vi.unstubAllGlobals());

describe('restoreSession', () => {
  it('uses the cookie session first', async () => {
    const f = fakeFetch(() => json(ana));
    vi.stubGlobal('fetch', f.fn);
    expect((await restoreSession())?.id).toBe(3);
    expect(f.calls.map((c) => c.url)).toEqual(['/api/session']);
  });

  it('without a cookie session, logs in with the remember-me token (GET /api/session?token=)', async () => {
    usePrefs.getState().setRememberme('tok');
    const f = fakeFetch((url) => (url === '/api/session' ? text('', 404) : json(ana)));
    vi.stubGlobal('fetch', f.fn);
    expect((await restoreSession())?.id).toBe(3);
    expect(f.calls.map((c) => c.url)).toEqual(['/api/session', '/api/session?token=tok']);
    expect(useSession.getState().user?.id).toBe(3);
  });

  it('a rejected token is forgotten and the result is "no session"', async () => {
    usePrefs.getState().setRememberme('old');
    vi.stubGlobal('fetch', fakeFetch(() => text('', 401)).fn);
    expect(await restoreSession()).toBeNull();
    expect(localStorage.getItem('rememberme')).toBeNull();
  });

  it('a server that does not answer is an error, not "signed out"', async () => {
    vi.stubGlobal('fetch', (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch);
    await expect(restoreSession()).rejects.toMatchObject({ status: 0 });
  });
});

describe('logout (SPEC §2)', () => {
  it('revokes the remember-me token, DELETE /api/session, drops the driver-view flag, then reloads on /login', async () => {
    usePrefs.getState().setRememberme('tok');
    sessionStorage.setItem(DRIVER_VIEW_KEY, '1');
    useSession.setState({ user: ana });
    const f = fakeFetch(() => new Response(null, { status: 204 }));
    vi.stubGlobal('fetch', f.fn);
    const reload = vi.fn();
    await logout(reload);
    expect(f.calls.map((c) => `${c.init.method} ${c.url}`)).toEqual([
      'POST /api/session/token/revoke',
      'DELETE /api/session',
    ]);
    expect(String(f.calls[0].init.body)).toBe('token=tok');
    expect(localStorage.getItem('rememberme')).toBeNull();
    expect(sessionStorage.getItem(DRIVER_VIEW_KEY)).toBeNull();
    expect(useSession.getState().user).toBeNull();
    expect(reload).toHaveBeenCalledWith('/login');
  });

  it('a query refused with 401 while the session is being deleted does not send the page to /login?to=here', async () => {
    const { onSessionLost } = await import('./queryClient.ts');
    const { HttpError } = await import('../api/http.ts');
    useSession.setState({ user: ana });
    const go = vi.fn();
    const f = fakeFetch((url) => {
      if (url.endsWith('/session')) onSessionLost(new HttpError(401, ''), go);
      return new Response(null, { status: 204 });
    });
    vi.stubGlobal('fetch', f.fn);
    const reload = vi.fn();
    await logout(reload);
    expect(go).not.toHaveBeenCalled();
    expect(reload).toHaveBeenCalledWith('/login');
  });
});

describe('session lost', () => {
  it('a 401 while signed in clears the user and goes to /login?to=here; other errors do nothing', async () => {
    const { onSessionLost } = await import('./queryClient.ts');
    const { HttpError } = await import('../api/http.ts');
    const go = vi.fn();
    useSession.setState({ user: ana });
    onSessionLost(new HttpError(400, 'x'), go);
    expect(go).not.toHaveBeenCalled();
    onSessionLost(new HttpError(401, ''), go);
    expect(go).toHaveBeenCalledWith('/login?to=%2F');
    expect(useSession.getState().user).toBeNull();
    onSessionLost(new HttpError(401, ''), go);
    expect(go).toHaveBeenCalledTimes(1);
  });
});

describe('the saved language of the user', () => {
  afterEach(async () => {
    await setLocale('pt-BR');
  });

  it('applies {ns}.lang after sign-in, unless ?locale= asks for another; unknown values change nothing', async () => {
    const ns = useSession.getState().ns;
    const withLang = (lang: string) => ({ ...ana, attributes: { [`${ns}.lang`]: lang } }) as unknown as User;
    applyUserLocale(withLang('es'), '');
    await vi.waitFor(() => expect(i18n.language).toBe('es'));
    applyUserLocale(withLang('en-US'), '?locale=es');
    expect(i18n.language).toBe('es');
    applyUserLocale(withLang('klingon'), '');
    expect(i18n.language).toBe('es');
    const f = fakeFetch(() => json(withLang('en-US')));
    vi.stubGlobal('fetch', f.fn);
    await restoreSession();
    await vi.waitFor(() => expect(i18n.language).toBe('en-US'));
    expect(document.documentElement.lang).toBe('en-US');
  });
});

describe('login (issue #31: Enter to the markers drawn)', () => {
  it('asks for the devices and opens the live socket as soon as the session is answered; the guard takes that request over', async () => {
    const f = fakeFetch((url) => (url === '/api/devices' ? json([{ id: 7, name: 'Van' }]) : json(ana)));
    vi.stubGlobal('fetch', f.fn);
    await login('ana', 'secret');
    // before the sign-in page navigates (and React renders the shell and the map)
    expect(f.calls.map((c) => `${c.init.method ?? 'GET'} ${c.url}`)).toEqual([
      'POST /api/session',
      'GET /api/devices',
    ]);
    await vi.waitFor(() => expect(socket.openSocket).toHaveBeenCalled());
    await guardEffects.loadDevices();
    expect(f.calls.filter((c) => c.url === '/api/devices')).toHaveLength(1);
    expect(guardEffects.deviceIds?.()).toEqual([7]);
  });

  // session 28: rendered before them, the shell's long first render held both answers back and fed the map late
  it("returns once the devices and the socket's first positions are in, so the page navigates with the fleet", async () => {
    let positionsIn!: () => void;
    socket.firstPositions.mockImplementationOnce(() => new Promise<void>((r) => (positionsIn = r)));
    const f = fakeFetch((url) => (url === '/api/devices' ? json([{ id: 8, name: 'Truck' }]) : json(ana)));
    vi.stubGlobal('fetch', f.fn);
    let returned = false;
    const signedIn = login('ana', 'secret').then(() => (returned = true));
    await vi.waitFor(() => expect(socket.firstPositions).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 20));
    expect(returned).toBe(false);
    positionsIn();
    await signedIn;
    await guardEffects.loadDevices();
    expect(guardEffects.deviceIds?.()).toEqual([8]);
  });

  it('waits for a silent socket no longer than FIRST_POSITIONS_WAIT_MS, and not at all for failed devices', async () => {
    socket.firstPositions.mockImplementationOnce(() => new Promise<void>(() => undefined));
    vi.stubGlobal('fetch', fakeFetch((url) => (url === '/api/devices' ? json([]) : json(ana))).fn);
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      let returned = false;
      const signedIn = login('ana', 'secret').then(() => (returned = true));
      await vi.waitFor(() => expect(socket.firstPositions).toHaveBeenCalled());
      await vi.advanceTimersByTimeAsync(FIRST_POSITIONS_WAIT_MS - 10);
      expect(returned).toBe(false);
      await vi.advanceTimersByTimeAsync(10);
      await signedIn;
    } finally {
      vi.useRealTimers();
    }
    await guardEffects.loadDevices();
    // a large fleet: no wait for its first message (the spinner's frames cost more than the early data gives);
    // with the clock stopped, a wait would never end
    const fleet = Array.from({ length: LOGIN_WAIT_FLEET_MAX + 1 }, (_, i) => ({ id: i + 1, name: `V${i}` }));
    vi.stubGlobal('fetch', fakeFetch((url) => (url === '/api/devices' ? json(fleet) : json(ana))).fn);
    socket.firstPositions.mockClear();
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      expect((await login('ana', 'secret')).id).toBe(3);
    } finally {
      vi.useRealTimers();
    }
    expect(socket.firstPositions).not.toHaveBeenCalled();
    await guardEffects.loadDevices();
    // the devices refused: login returns the user at once, the guard reports the failure
    vi.stubGlobal('fetch', fakeFetch((url) => (url === '/api/devices' ? text('', 500) : json(ana))).fn);
    expect((await login('ana', 'secret')).id).toBe(3);
    await expect(guardEffects.loadDevices()).rejects.toMatchObject({ status: 500 });
  });
});
