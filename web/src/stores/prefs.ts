// The browser-local preferences of SPEC §3. Each preference lives under its own localStorage key (the key names
// are part of the product: other tabs, the e2e fixtures and older installs read them directly).
import type { MapPref } from '@rastro/domain';
import { create } from 'zustand';

export type { MapPref };

/**
 * SPEC §9: clustered on, geofences shown — the domain's DEFAULT_MAP_PREF, written again here because importing its
 * module (the map rules) would put it into the entry chunk every sign-in page downloads (1.1 kB gzip).
 */
export const defaultMapPref: MapPref = {
  clustered: true,
  name: true,
  plate: false,
  status: false,
  precision: false,
  showGeofences: true,
  geofenceNames: true,
};

/** Per-group UI preference (e.g. which groups are collapsed in the device list), keyed by group id. */
export type GroupPref = Record<string, boolean>;

/** localStorage, or null where there is none or it is blocked. */
export function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

function readRaw(key: string): string | null {
  return storage()?.getItem(key) ?? null;
}

function readJson<T>(key: string, fallback: T, valid: (v: unknown) => boolean): T {
  const raw = readRaw(key);
  if (raw === null) return fallback;
  try {
    const v: unknown = JSON.parse(raw);
    return valid(v) ? (v as T) : fallback;
  } catch {
    return fallback;
  }
}

/** Plain strings are stored as-is; a JSON-quoted string written by an older build is unwrapped. */
function readString(key: string, fallback: string): string {
  const raw = readRaw(key);
  if (raw === null) return fallback;
  if (raw.startsWith('"')) {
    try {
      const v: unknown = JSON.parse(raw);
      if (typeof v === 'string') return v;
    } catch {
      /* keep raw */
    }
  }
  return raw;
}

function write(key: string, value: string | null): void {
  const s = storage();
  if (!s) return;
  if (value === null) s.removeItem(key);
  else s.setItem(key, value);
}

const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface PrefsState {
  isMuted: boolean;
  groupPref: GroupPref;
  mapPref: MapPref;
  /** Device search text. */
  query: string;
  /** Map style id; 'offline' = no tile fetches (tests). Empty = the product default. */
  mapStyle: string;
  /** Long-lived session token from POST /api/session/token (never a password). */
  rememberme: string | null;
  setMuted(muted: boolean): void;
  toggleMuted(): void;
  setGroupPref(pref: GroupPref): void;
  setMapPref(patch: Partial<MapPref>): void;
  setQuery(query: string): void;
  setMapStyle(style: string): void;
  setRememberme(token: string | null): void;
  /** Re-reads every key from localStorage (after another tab or a test changed it). */
  reload(): void;
}

function readAll() {
  return {
    isMuted: readJson<boolean>('isMuted', false, (v) => typeof v === 'boolean'),
    groupPref: readJson<GroupPref>('groupPref', {}, isObject),
    mapPref: { ...defaultMapPref, ...readJson<Partial<MapPref>>('mapPref', {}, isObject) },
    query: readString('query', ''),
    mapStyle: readString('mapStyle', ''),
    rememberme: readRaw('rememberme'),
  };
}

export const usePrefs = create<PrefsState>((set, get) => {
  /** Stores a preference under its key (null removes it) and in the state. */
  const save = <K extends keyof ReturnType<typeof readAll>>(
    key: K,
    value: PrefsState[K],
    stored: string | null,
  ) => {
    write(key, stored);
    set({ [key]: value });
  };
  return {
    ...readAll(),
    setMuted: (muted) => save('isMuted', muted, JSON.stringify(muted)),
    toggleMuted: () => get().setMuted(!get().isMuted),
    setGroupPref: (pref) => save('groupPref', pref, JSON.stringify(pref)),
    setMapPref(patch) {
      const mapPref = { ...get().mapPref, ...patch };
      save('mapPref', mapPref, JSON.stringify(mapPref));
    },
    setQuery: (query) => save('query', query, query),
    setMapStyle: (style) => save('mapStyle', style, style || null),
    setRememberme: (token) => save('rememberme', token, token),
    reload: () => set(readAll()),
  };
});
