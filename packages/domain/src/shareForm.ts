// Shares of the extension API (SPEC §7 client A: GET/POST /shares, PUT/DELETE /shares/{id}): the JSON body of a
// new share and of an expiry change, checked by the shares dialog and by the server with the same schema.
import { z } from 'zod';
import type { MessageKey } from './messages.ts';

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
/** An ISO date-time (with zone); past or unparsable dates are refused by shareExpiryIssue. */
const instant = z.string().trim().min(1, 'share.expiryInvalid').max(64, 'share.expiryInvalid');

/** POST /{ns}/shares: one device or one group, and when the link stops working. */
export const shareCreateSchema = z
  .object({
    deviceId: id.optional(),
    groupId: id.optional(),
    expirationTime: instant,
  })
  .refine((s) => (s.deviceId === undefined) !== (s.groupId === undefined), {
    message: 'share.targetRequired',
    path: ['deviceId'],
  });

/** PUT /{ns}/shares/{id}: a new expiry (the target of a share never changes). */
export const shareUpdateSchema = z.object({ expirationTime: instant }).passthrough();

export type ShareCreate = z.output<typeof shareCreateSchema>;

/** A share as the extension API answers it. */
export interface ShareRecord {
  id: number;
  token: string;
  deviceId: number | null;
  groupId: number | null;
  /** The device's or group's name when the share was listed. */
  name: string;
  expirationTime: string;
  createdAt: string;
  /** The user who created the link. */
  creatorId: number;
  creatorName: string;
}

/** Why an expiry cannot be used: not a date, or not in the future. Null when fine. */
export function shareExpiryIssue(expirationTime: string, nowMs: number): MessageKey | null {
  const t = Date.parse(expirationTime);
  if (Number.isNaN(t)) return 'share.expiryInvalid';
  if (t <= nowMs) return 'share.expiryPast';
  return null;
}

/** The guest's address of a share: `<origin>/share/<token>` (SPEC §2 route /share/{token}). */
export function shareLink(origin: string, token: string): string {
  return `${origin.replace(/\/+$/, '')}/share/${encodeURIComponent(token)}`;
}

/** Live (not yet expired) shares first, soonest expiry first; expired ones after, most recent first. */
export function sortShares<T extends Pick<ShareRecord, 'expirationTime' | 'id'>>(
  shares: readonly T[],
  nowMs: number,
): T[] {
  const at = (s: T) => Date.parse(s.expirationTime);
  return [...shares].sort((a, b) => {
    const la = at(a) > nowMs;
    const lb = at(b) > nowMs;
    if (la !== lb) return la ? -1 : 1;
    return la ? at(a) - at(b) || a.id - b.id : at(b) - at(a) || b.id - a.id;
  });
}
