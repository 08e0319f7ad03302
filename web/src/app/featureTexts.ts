// Which namespaces each feature's screens and dialogs render with, beyond the shell's (i18n SCREEN_NAMESPACES):
// pages.tsx and dialogRegistry.ts download them together with the feature's code. A namespace forgotten here is
// still fetched on its first missing key (i18n/index.ts), at the cost of a round trip showing ⟦key⟧.
import type { ComponentType } from 'react';
import { withTexts } from '../i18n/index.ts';

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

export type FeatureName = keyof typeof FEATURE_TEXTS;

/** A feature's code, resolved once its texts are there too. */
export const feature = <T>(name: FeatureName, code: Promise<T>): Promise<T> =>
  withTexts(FEATURE_TEXTS[name], code);

/** The loader of a lazy part: the component `name` of a feature's module, with the feature's texts. */
export const partOf =
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as React's own lazy<T extends ComponentType<any>>
  <K extends string, T extends ComponentType<any>>(
      texts: FeatureName,
      load: () => Promise<Record<K, T>>,
      name: K,
    ) =>
    () =>
      feature(texts, load()).then((m) => ({ default: m[name] }));
