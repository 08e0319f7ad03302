// Sign-in, session restore and logout (SPEC §2 guard and logout, §7 session calls).
import {
  homeOf,
  isQrDriver,
  normalizeLocale,
  type Device,
  type PermissionContext,
  type User,
} from '@rastro/domain';
import { i18n, setLocale } from '../i18n/index.ts';
import { api, HttpError } from '../api/http.ts';
import { fetchServer } from '../api/resources.ts';
import { usePrefs } from '../stores/prefs.ts';
import { useSession } from '../stores/session.ts';
import type { GuardEffects } from './guardEffects.ts';

/** sessionStorage flag set while a QR driver uses the driver view. */
export const DRIVER_VIEW_KEY = 'driverView';
/** Remember-me tokens last six months (as the official web app asks for its native wrapper). */
export const REMEMBER_ME_DAYS = 180;
/**
 * How long a signed-in page's first load waits, once its devices are in, for the socket's first message (every
 * latest position) before it shows the shell without them.
 */
export const FIRST_POSITIONS_WAIT_MS = 1000;
/**
 * The sign-in form waits for the first positions (login) only for a fleet up to this size: with 10,000 devices the
 * socket's first message (5 MB) kept the sign-in page's spinner drawing frames for up to a second, browser CPU 1.35
 * times as much for no earlier map; with 100 and 2,000 the map came sooner (session 28).
 */
export const LOGIN_WAIT_FLEET_MAX = 2000;
/** How long the sign-in form waits for the devices (a large fleet's list takes longer: the page navigates then). */
const LOGIN_DEVICES_WAIT_MS = 150;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** localStorage flag: this browser's session is a QR driver's (its pages ask for no device list before the guard). */
const DRIVER_SESSION_KEY = 'driverSession';

function setUser(user: User): User {
  useSession.getState().setUser(user);
  applyUserLocale(user);
  try {
    if (isQrDriver(user, useSession.getState().ns)) localStorage.setItem(DRIVER_SESSION_KEY, '1');
    else localStorage.removeItem(DRIVER_SESSION_KEY);
  } catch {
    /* storage unavailable */
  }
  return user;
}

/**
 * A signed-in user's saved language ({ns}.lang, set in My Account) becomes the page language, unless the address
 * asks for one with ?locale= (SPEC §1 puts the query first).
 */
export function applyUserLocale(
  user: User,
  search = typeof location === 'undefined' ? '' : location.search,
): void {
  if (new URLSearchParams(search).get('locale')) return;
  const saved = normalizeLocale(String(user.attributes?.[`${useSession.getState().ns}.lang`] ?? ''));
  if (saved && saved !== i18n.language) void setLocale(saved);
}

/** GET /api/session?token= : logs in with a remember-me, share or API token. */
export async function loginWithToken(token: string): Promise<User> {
  return setUser(await api.get<User>('/session', { token }));
}

/** sessionStorage: the share link this tab's guest opened (a lost session goes back to it, guardEffects). */
const SHARE_TOKEN_KEY = 'shareToken';

function rememberShare(token: string | null): void {
  try {
    if (token) sessionStorage.setItem(SHARE_TOKEN_KEY, token);
    else sessionStorage.removeItem(SHARE_TOKEN_KEY);
  } catch {
    /* storage unavailable */
  }
}

/** The tab forgets its share link (SharePage: the link expired; a later lost session asks for a sign-in). */
export const forgetShare = (): void => rememberShare(null);

/**
 * A shared link's guest signs in with its token (SharePage). The tab keeps the token: when the session ends (the
 * link revoked or expired) a reload goes back to the link, which says it expired, rather than to a sign-in form.
 */
export async function loginWithShare(token: string): Promise<User> {
  const user = await loginWithToken(token);
  rememberShare(token);
  return user;
}

/** A shared link's guest, signed in: its devices into the store, then its home (its one vehicle, or the map). */
export async function guestHome(): Promise<string> {
  await loadDevicesNow();
  const { user, ns, server, isPlus } = useSession.getState();
  return homeOf({ user, ns, server, isPlus }, loadedIds);
}

/**
 * The current session from the cookie; when there is none, the remember-me token.
 * Null when neither signs anyone in. Other failures (server down) are thrown.
 */
export async function restoreSession(): Promise<User | null> {
  try {
    return setUser(await api.get<User>('/session'));
  } catch (err) {
    if (!(err instanceof HttpError) || (err.status !== 404 && err.status !== 401)) throw err;
  }
  const token = usePrefs.getState().rememberme;
  if (!token) return null;
  try {
    return await loginWithToken(token);
  } catch (err) {
    if (err instanceof HttpError && (err.status === 401 || err.status === 404 || err.status === 400)) {
      usePrefs.getState().setRememberme(null);
      return null;
    }
    throw err;
  }
}

/** POST /api/session (form-encoded). With remember me, keeps a long-lived token, never the password. */
export async function login(email: string, password: string, remember = false): Promise<User> {
  const user = setUser(await api.postForm<User>('/session', { email, password }));
  rememberShare(null);
  const data = startAfterSignIn(user);
  if (remember) {
    try {
      const expiration = new Date(Date.now() + REMEMBER_ME_DAYS * 86_400_000).toISOString();
      const token = await api.postForm<string>('/session/token', { expiration, rememberMe: 'true' });
      if (typeof token === 'string' && token.trim()) usePrefs.getState().setRememberme(token.trim());
    } catch (err) {
      console.warn('remember-me token not issued', err);
    }
  } else {
    usePrefs.getState().setRememberme(null);
  }
  await data;
  return user;
}

/** Logout of SPEC §2: end the session, forget remember-me and the driver view, close the socket, reload on /login. */
export async function logout(
  reload: (to: string) => void = (to) => window.location.assign(to),
): Promise<void> {
  // Signed out in the store first: a query refused with 401 while the session is being deleted must not send the
  // page to /login?to=here (onSessionLost ignores a signed-out store) after this function's own /login.
  useSession.getState().clear();
  // The server revokes the remember-me token of this session on logout; revoking the stored one explicitly also
  // covers a token kept from an earlier session.
  const remembered = usePrefs.getState().rememberme;
  if (remembered) await api.postForm('/session/token/revoke', { token: remembered }).catch(() => undefined);
  try {
    await api.del('/session');
  } catch (err) {
    console.warn('logout request failed', err);
  }
  usePrefs.getState().setRememberme(null);
  try {
    sessionStorage.removeItem(DRIVER_VIEW_KEY);
    sessionStorage.removeItem(SHARE_TOKEN_KEY);
    localStorage.removeItem(DRIVER_SESSION_KEY);
  } catch {
    /* storage unavailable */
  }
  // the socket and the live store are chunks of the signed-in pages (a sign-in page does not carry them)
  const { closeSocket } = await import('../api/socket.ts');
  closeSocket();
  reload('/login');
}

let devicesLoaded = false;
/** Ids of the devices last loaded (the guard's guest home). */
let loadedIds: number[] = [];

/** The live store's chunk (asked for once). */
const liveStore = () => import('../stores/live.ts');

/** Devices into the live store; the request does not wait for the store's chunk (nor the chunk for it). */
async function loadDevicesNow(
  request = api.get<Device[]>('/devices'),
  store: ReturnType<typeof liveStore> = liveStore(),
): Promise<void> {
  const [devices, live] = await Promise.all([request, store]);
  live.useLive.getState().setDevices(devices);
  devicesLoaded = true;
  loadedIds = devices.map((d) => d.id);
}

/**
 * Requests a signed-in page starts before React's first render (main.tsx), so the guard's first run finds them
 * under way instead of starting them one after another: server info, the session and the devices at once (a
 * devices answer refused for want of a session is dropped and asked again once the remember-me token signed in),
 * and the live socket as soon as the session is known (its first message carries every latest position, which the
 * map draws as soon as it exists). Each is taken over once by the guard's effects.
 */
const early: {
  server?: Promise<void>;
  session?: Promise<User | null>;
  devices?: Promise<void>;
} = {};

/** Marks a promise as handled here; its owner (the guard) still sees the rejection. */
const quiet = <T>(p: Promise<T>): Promise<T> => {
  p.catch(() => undefined);
  return p;
};

/** The last session seen in this browser was a QR driver's (its view needs no device list). */
function driverSession(): boolean {
  try {
    return (
      localStorage.getItem(DRIVER_SESSION_KEY) !== null || sessionStorage.getItem(DRIVER_VIEW_KEY) !== null
    );
  } catch {
    return false;
  }
}

/**
 * Starts them; resolves whether the server answered and someone is signed in (false on any failure). `opens`: whether
 * the page's route is open to the signed-in viewer (the access table); a refused one gets no device list, its home
 * asks for what it needs (issue #28: no data request before the redirect).
 */
export function startSignedInRequests({
  devices,
  opens = () => true,
}: {
  devices: boolean;
  opens?: (viewer: PermissionContext) => boolean;
}): Promise<boolean> {
  const server = quiet(fetchServer().then(() => undefined));
  const session = quiet(restoreSession());
  early.server = server;
  early.session = session;
  const signedIn = Promise.all([server, session]).then(
    ([, user]) => user !== null,
    () => false,
  );
  if (!devices) return signedIn;
  // asked before the session answers, for speed; not where the last session was a QR driver's (refused the list)
  const driver = driverSession();
  const first = driver ? null : quiet(api.get<Device[]>('/devices'));
  // the live store's and the socket's small chunks are asked for now, before the shell's and the map's: the guard
  // waits for the store (the devices go into it), and over HTTP/1.1 what is asked first is sent first
  const store = quiet(liveStore());
  const socket = quiet(import('../api/socket.ts'));
  early.devices = quiet(
    session.then(async (user) => {
      if (!user) return;
      await server;
      const { ns, server: settings, isPlus } = useSession.getState();
      if (!opens({ user, ns, server: settings, isPlus })) return;
      const live = socket.then((s) => {
        void s.openSocket();
        return s;
      });
      const request = (first ?? api.get<Device[]>('/devices')).catch((err: unknown) => {
        // asked before the remember-me token signed in: ask again with the session it opened
        if (err instanceof HttpError && err.status === 401) return api.get<Device[]>('/devices');
        throw err;
      });
      try {
        await loadDevicesNow(request, store);
        // the positions too, for a moment: shown without them, the shell and the map start (long tasks the
        // socket's first message then waits behind, 0.5–1.4 s at 10,000 devices) and draw every marker again
        // when they come (session 16)
        const positions = live.then((s) => s.firstPositions());
        await Promise.race([positions.catch(() => undefined), delay(FIRST_POSITIONS_WAIT_MS)]);
      } catch (err) {
        // the guard sends this page to maintenance or sign-in: no socket behind it
        void live.then((s) => s.closeSocket()).catch(() => undefined);
        throw err;
      }
    }),
  );
  return signedIn;
}

/**
 * The signed-in page's data as soon as a sign-in form's session is answered (issue #31, timed from Enter): the
 * devices, the live socket's upgrade and their chunks leave now, before the sign-in page navigates and React renders
 * the shell and the map (a long task), instead of from the guard's effect after that render. The guard takes the
 * devices over (loadDevices); the live socket opened here is the one MapView asks for. Not for a QR driver,
 * whose view asks for no device list. Resolves (never rejects: the guard reports failures) once the devices and the
 * socket's first positions are in the live store, or FIRST_POSITIONS_WAIT_MS after the devices; at once for
 * devices not in within LOGIN_DEVICES_WAIT_MS or a fleet over LOGIN_WAIT_FLEET_MAX (at 10,000 devices the wait
 * cost more than it gave). login() returns then, so that the page navigates with the fleet in hand, as a signed-in
 * page's first load does. Rendered before, the shell's long render held both answers back (they were
 * handled after it, 100–200 ms later) and the map was fed only after its first render (session 28).
 */
function startAfterSignIn(user: User): Promise<void> {
  if (early.devices || isQrDriver(user, useSession.getState().ns)) return Promise.resolve();
  const request = quiet(api.get<Device[]>('/devices'));
  const store = quiet(liveStore());
  const live = quiet(
    import('../api/socket.ts').then((s) => {
      void s.openSocket();
      return s;
    }),
  );
  const devices = quiet(loadDevicesNow(request, store));
  early.devices = devices;
  const small = devices.then(() => loadedIds.length <= LOGIN_WAIT_FLEET_MAX);
  return Promise.race([small, delay(LOGIN_DEVICES_WAIT_MS).then(() => false)])
    .then((wait) =>
      wait ? Promise.race([live.then((s) => s.firstPositions()), delay(FIRST_POSITIONS_WAIT_MS)]) : undefined,
    )
    .catch(() => undefined);
}

/** The early request of this kind, once; later calls (another navigation) start their own. */
function takeEarly<K extends keyof typeof early>(key: K): (typeof early)[K] {
  const p = early[key];
  delete early[key];
  return p;
}

/** The effects the guard runs against the real API and stores. */
export const guardEffects: GuardEffects = {
  hasServer: () => useSession.getState().server !== null,
  loadServer: async () => {
    await (takeEarly('server') ?? fetchServer());
  },
  currentUser: () => useSession.getState().user,
  checkSession: () => takeEarly('session') ?? restoreSession(),
  loadDevices: async () => {
    await (takeEarly('devices') ?? loadDevicesNow());
  },
  needsDevices: () => !devicesLoaded,
  deviceIds: () => loadedIds,
  ns: () => useSession.getState().ns,
  shareToken: () => {
    try {
      return sessionStorage.getItem(SHARE_TOKEN_KEY);
    } catch {
      return null;
    }
  },
  viewer: () => ({ server: useSession.getState().server, isPlus: useSession.getState().isPlus }),
};
