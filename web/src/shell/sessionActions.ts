// Sign-in, session restore and logout (SPEC §2 guard and logout, §7 session calls).
import { normalizeLocale, type User } from '@rastro/domain';
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

function setUser(user: User): User {
  useSession.getState().setUser(user);
  applyUserLocale(user);
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
  return user;
}

/** Logout of SPEC §2: end the session, forget remember-me and the driver view, close the socket, reload on /login. */
export async function logout(
  reload: (to: string) => void = (to) => window.location.assign(to),
): Promise<void> {
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
  } catch {
    /* storage unavailable */
  }
  // the socket and the live store are chunks of the signed-in pages (a sign-in page does not carry them)
  const { closeSocket } = await import('../api/socket.ts');
  closeSocket();
  useSession.getState().clear();
  reload('/login');
}

let devicesLoaded = false;

/** The effects the guard runs against the real API and stores. */
export const guardEffects: GuardEffects = {
  hasServer: () => useSession.getState().server !== null,
  loadServer: async () => {
    await fetchServer();
  },
  currentUser: () => useSession.getState().user,
  checkSession: restoreSession,
  loadDevices: async () => {
    const { loadDevices } = await import('../stores/live.ts');
    await loadDevices();
    devicesLoaded = true;
  },
  needsDevices: () => !devicesLoaded,
};
