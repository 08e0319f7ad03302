// Autolink (SPEC §2 /autolink, /autolink/{id}; §7 POST /autolink; docs/autolink.md): a tracker that reports with an
// identifier the server does not know is remembered; its owner types (or opens, from the sticker's link
// /autolink/<identifier>) that identifier and links it to the account in one step.
import { z } from 'zod';

/** Identifiers as trackers send them (IMEI, serial, phone): letters, digits and _ . : - . */
export const TRACKER_ID = /^[A-Za-z0-9_.:-]{3,128}$/;

export const autolinkSchema = z.object({
  uniqueId: z.string().trim().regex(TRACKER_ID, 'autolink.identifierInvalid'),
  name: z.string().trim().min(1, 'validation.deviceNameRequired').max(128, 'validation.deviceNameRequired'),
});
export type AutolinkInput = z.output<typeof autolinkSchema>;

/** What the server knows about an identifier (GET /{ns}/autolink?uniqueId=). */
export interface AutolinkStatus {
  uniqueId: string;
  /** A device with this identifier is already registered (to someone). */
  registered: boolean;
  /** The server has heard from this identifier and kept its last report. */
  seen: boolean;
  lastSeen: string | null;
  reports: number;
  protocol: string | null;
}
