// What the navigation guard (app/guard.ts) needs from the session services (shell/sessionActions.ts), so the
// services need not import the guard.
import type { PermissionContext, User } from '@rastro/domain';

export interface GuardEffects {
  /** Server info already in the store. */
  hasServer(): boolean;
  /** GET /api/server into the store (throws when the server cannot answer). */
  loadServer(): Promise<void>;
  /** The signed-in user in the store, if any. */
  currentUser(): User | null;
  /**
   * Restores a session: GET /api/session, or GET /api/session?token= with the remember-me token.
   * Resolves the user, or null when there is no session (auth failure). Throws on other failures.
   */
  checkSession(): Promise<User | null>;
  /** Loads devices for the map (map-wait mode). */
  loadDevices(): Promise<void>;
  /** Ids of the devices loaded for the viewer (a share guest's home is its one shared vehicle). */
  deviceIds?(): number[];
  /** Devices not loaded yet in this page (e.g. right after signing in on the login form). */
  needsDevices?(): boolean;
  /** The attribute namespace (role attributes such as `{ns}.isQrDriverId`); the default one when absent. */
  ns?(): string;
  /** The share link this tab's guest signed in with (a lost session goes back to it), if any. */
  shareToken?(): string | null;
  /** The server settings and licence the access table reads (a non-Plus server without settings when absent). */
  viewer?(): Pick<PermissionContext, 'server' | 'isPlus'>;
}
