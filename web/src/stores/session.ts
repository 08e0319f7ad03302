// Who is signed in and what the server is (SPEC §3 server info, §6 licence headers).
import { create } from 'zustand';
import type { Server, User } from '@rastro/domain';
import { readNamespace } from '../api/http.ts';

export interface SessionState {
  user: User | null;
  server: Server | null;
  /** Plus licence: response header `licensemode` of GET /api/server. */
  isPlus: boolean;
  /** Response header `devicelimit` of GET /api/server (0 or below blocks adding devices, SPEC §5). */
  deviceLimit: number;
  /** The product namespace ({ns}). */
  ns: string;
  setServer(server: Server, headers?: { licensemode?: string | null; devicelimit?: string | null }): void;
  setUser(user: User | null): void;
  /** Forgets the user (logout, expired share). The server info stays. */
  clear(): void;
}

/** `licensemode` header: anything but an explicit basic/free/false mode counts as Plus. */
export function parseLicenseMode(value: string | null | undefined): boolean {
  if (!value?.trim()) return false;
  return !['basic', 'free', 'false', '0', 'none'].includes(value.trim().toLowerCase());
}

export function parseDeviceLimit(value: string | null | undefined): number {
  const n = value?.trim() ? Number(value) : 0;
  return Number.isFinite(n) ? n : 0;
}

export const useSession = create<SessionState>((set) => ({
  user: null,
  server: null,
  isPlus: false,
  deviceLimit: 0,
  ns: readNamespace(),
  setServer(server, headers) {
    if (!headers) return set({ server });
    const { licensemode, devicelimit } = headers;
    set({ server, isPlus: parseLicenseMode(licensemode), deviceLimit: parseDeviceLimit(devicelimit) });
  },
  setUser(user) {
    set({ user });
  },
  clear() {
    set({ user: null });
  },
}));
