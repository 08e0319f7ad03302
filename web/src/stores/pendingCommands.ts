// Commands queued for offline devices (SPEC §4: "a queued command shows as pending" until the device is online).
// Written by the device actions (POST /api/commands/send answered 202), read by the device list and detail.
// Owned by ACTIONS. A pending entry clears on a queuedCommandSent/commandResult event of its device, or when the
// device reports again (online with a newer update) after the command was queued. Entries are kept per user in
// localStorage (`pendingCommands.<userId>`), so a reload still shows what waits for a device that is offline.
import { create } from 'zustand';
import type { Device, Event, Position } from '@rastro/domain';
import { storage } from './prefs.ts';
import { useSession } from './session.ts';

export interface PendingCommand {
  deviceId: number;
  type: string;
  /** When it was queued (ms since epoch). */
  since: number;
}

export interface PendingState {
  byDevice: Record<number, PendingCommand[]>;
  add(deviceId: number, type: string, since?: number): void;
  /** Removes every pending command of the device, or only those of one type. */
  clear(deviceId: number, type?: string): void;
  reset(): void;
}

export const usePendingCommands = create<PendingState>((set) => ({
  byDevice: {},
  add(deviceId, type, since = Date.now()) {
    set((s) => {
      const list = (s.byDevice[deviceId] ?? []).filter((c) => c.type !== type);
      return { byDevice: { ...s.byDevice, [deviceId]: [...list, { deviceId, type, since }] } };
    });
  },
  clear(deviceId, type) {
    set((s) => {
      const list = s.byDevice[deviceId];
      if (!list) return s;
      const rest = type ? list.filter((c) => c.type !== type) : [];
      const byDevice = { ...s.byDevice };
      if (rest.length) byDevice[deviceId] = rest;
      else delete byDevice[deviceId];
      return { byDevice };
    });
  },
  reset() {
    set({ byDevice: {} });
  },
}));

const STORAGE_PREFIX = 'pendingCommands.';

/** Reads a user's saved entries, keeping only well-formed ones. */
export function readPending(userId: number): Record<number, PendingCommand[]> {
  const out: Record<number, PendingCommand[]> = {};
  try {
    const raw: unknown = JSON.parse(storage()?.getItem(STORAGE_PREFIX + userId) ?? '{}');
    if (!raw || typeof raw !== 'object') return out;
    for (const [key, list] of Object.entries(raw as Record<string, unknown>)) {
      const id = Number(key);
      if (!Number.isInteger(id) || !Array.isArray(list)) continue;
      const ok = (list as Array<Partial<PendingCommand> | null>).filter(
        (c): c is PendingCommand =>
          c?.deviceId === id && typeof c.type === 'string' && Number.isFinite(c.since),
      );
      if (ok.length) out[id] = ok;
    }
  } catch {
    // unreadable: start empty
  }
  return out;
}

// follow the signed-in user: load their entries, save every change, forget them on logout
let savedUser: number | null = null;
function followUser(user: { id: number } | null): void {
  const id = user?.id ?? null;
  if (id === savedUser) return;
  savedUser = id;
  usePendingCommands.setState({ byDevice: id === null ? {} : readPending(id) });
}
followUser(useSession.getState().user);
useSession.subscribe((s) => followUser(s.user));
usePendingCommands.subscribe((s, prev) => {
  if (savedUser === null || s.byDevice === prev.byDevice) return;
  try {
    const key = STORAGE_PREFIX + savedUser;
    if (Object.keys(s.byDevice).length) storage()?.setItem(key, JSON.stringify(s.byDevice));
    else storage()?.removeItem(key);
  } catch {
    // storage full or blocked: the marks still work for this page's life
  }
});

/** The pending command types of one device (stable empty array when none). */
const EMPTY: PendingCommand[] = [];
export function usePendingFor(deviceId: number): PendingCommand[] {
  return usePendingCommands((s) => s.byDevice[deviceId] ?? EMPTY);
}

const time = (s: string | null | undefined) => (s ? Date.parse(s) : NaN);

/**
 * Which pending entries are delivered, given the live data: an event queuedCommandSent/commandResult of the
 * device after it was queued, a position received (serverTime) after the queueing time, or the device online
 * with a lastUpdate newer than the queueing time. Returns [deviceId, type | undefined] pairs to clear.
 */
export function deliveredPending(
  pending: Record<number, PendingCommand[]>,
  devices: Record<number, Device>,
  positions: Record<number, Position>,
  events: readonly Event[],
): Array<[number, string | undefined]> {
  const out: Array<[number, string | undefined]> = [];
  for (const key of Object.keys(pending)) {
    const id = Number(key);
    const list = pending[id];
    const since = Math.min(...list.map((c) => c.since));
    const ev = events.find(
      (e) =>
        e.deviceId === id &&
        (e.type === 'queuedCommandSent' || e.type === 'commandResult') &&
        !(time(e.eventTime) < since - 60_000),
    );
    if (ev) {
      const t = ev.type === 'queuedCommandSent' ? ev.attributes?.type : undefined;
      out.push([id, typeof t === 'string' ? t : undefined]);
      continue;
    }
    const d = devices[id];
    const p = positions[id];
    // a position the server received after queueing proves the device connected (and so took its queue), even
    // when the device's status in the store is older: the socket's first message holds positions, not devices
    if ((time(p?.serverTime) || 0) > since) out.push([id, undefined]);
    else if (d?.status === 'online' && (time(d.lastUpdate) || 0) > since) out.push([id, undefined]);
  }
  return out;
}
