// The namespace tiers of the texts (issue #13, page weight): a plain module, also read by vite.config.ts to put
// each tier in chunks of its own.

/** What the sign-in pages (login, register, recover, driver login, share link, maintenance) render with. */
export const SIGN_IN_NAMESPACES: readonly string[] = ['common', 'auth'];

/**
 * Namespaces of single screens and dialogs: each is downloaded with its screen's code (app/featureTexts.ts), not
 * with the signed-in shell. The others (common, auth, shell, map, actions, notify, weather, changelog) are the
 * shell's, there at its first paint.
 */
export const SCREEN_NAMESPACES: readonly string[] = [
  'assistant',
  'autolink',
  'billing',
  'calendars',
  'commands',
  'computed',
  'dashboard',
  'deviceEdit',
  'devices',
  'drivers',
  'geofences',
  'groups',
  'health',
  'history',
  'linkObjects',
  'logs',
  'maintenances',
  'monitoring',
  'notifications',
  'reports',
  'serverSettings',
  'shares',
  'telemetry',
  'theme',
  'users',
];
