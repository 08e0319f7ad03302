// The namespace tiers of the texts (issue #13, page weight): a plain module, also read by vite.config.ts to put
// each tier in chunks of its own.

/** What the sign-in pages (login, register, recover, driver login, share link, maintenance) render with. */
export const SIGN_IN_NAMESPACES: readonly string[] = ['common', 'auth'];

/**
 * Which namespaces each feature's screens and dialogs render with, beyond the shell's: app/pages.tsx and
 * app/dialogRegistry.ts download them together with the feature's code (app/featureTexts.ts). A namespace forgotten
 * here is still fetched on its first missing key (i18n/index.ts), at the cost of a round trip showing ⟦key⟧.
 */
export const FEATURE_TEXTS = {
  assistant: ['assistant'],
  auth: [],
  autolink: ['autolink'],
  billing: ['billing'],
  calendars: ['calendars'],
  changelog: [],
  commands: ['commands'],
  computed: ['computed'],
  dashboard: ['dashboard', 'reports'],
  deviceActions: [],
  deviceEdit: ['deviceEdit', 'linkObjects'],
  devices: ['devices', 'deviceEdit'],
  drivers: ['drivers'],
  geofences: ['geofences'],
  groups: ['groups', 'linkObjects'],
  health: ['health'],
  history: ['history', 'reports'],
  linkObjects: ['linkObjects'],
  logs: ['logs', 'reports'],
  maintenances: ['maintenances'],
  monitoring: ['monitoring'],
  map: [],
  notifications: ['notifications'],
  notify: [],
  reports: ['reports'],
  serverSettings: ['serverSettings'],
  shares: ['shares'],
  telemetry: ['telemetry'],
  theme: ['theme'],
  users: ['users'],
  weather: [],
} as const satisfies Record<string, readonly string[]>;

/**
 * Namespaces of single screens and dialogs (those the features above name): each is downloaded with its screen's
 * code, not with the signed-in shell. The others (common, auth, shell, map, actions, notify, weather, changelog) are
 * the shell's, there at its first paint.
 */
export const SCREEN_NAMESPACES: readonly string[] = [...new Set(Object.values(FEATURE_TEXTS).flat())];
