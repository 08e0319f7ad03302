// QR driver check-in (SPEC §2 /qr-driver, /qr-driver/scan/{id}; §7 client A POST /qr-driver, body id, 0 to
// check out). A QR driver user ({ns}.isQrDriverId = the id of its driver record) scans a vehicle's QR code and
// becomes its driver: the device gets qrDriverId and driverUniqueId, the user {ns}.isQrDeviceId. One rule, used by
// the driver's page (what to offer) and by the server (what to accept).
import { z } from 'zod';
import { attrBool, attrPresent, nsKey } from './attributes.ts';
import type { MessageKey } from './messages.ts';
import type { Attributes } from './types.ts';

/** POST /{ns}/qr-driver: the device to check in to (0 = check out) and the driver's QR password when it has one. */
export const qrCheckinSchema = z.object({
  id: z
    .number({ message: 'qrDriver.deviceRequired' })
    .int('qrDriver.deviceRequired')
    .min(0, 'qrDriver.deviceRequired')
    .max(Number.MAX_SAFE_INTEGER, 'qrDriver.deviceRequired'),
  password: z.string().max(256, 'qrDriver.wrongPassword').optional(),
});
export type QrCheckin = z.output<typeof qrCheckinSchema>;

/** Whether a device accepts QR check-in (device form "QR-driver flag", {ns}.qrDriver). */
export const qrEnabledDevice = (attributes: Attributes | null | undefined, ns: string): boolean =>
  attrBool(attributes?.[nsKey(ns, 'qrDriver')]);

/** The driver currently checked in to a device (its qrDriverId), or null. */
export function deviceQrDriverId(attributes: Attributes | null | undefined): number | null {
  const v = attributes?.qrDriverId;
  if (!attrPresent(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** The server setting "QR driver check-in" ({ns}.qrDriverCheckin). */
export const qrCheckinEnabled = (serverAttributes: Attributes | null | undefined, ns: string): boolean =>
  attrBool(serverAttributes?.[nsKey(ns, 'qrDriverCheckin')]);

export interface QrCheckinFacts {
  /** Server setting on. */
  enabled: boolean;
  /** The caller's driver record id (null: not a QR driver, or no driver record). */
  driverId: number | null;
  /** The device, when the caller sees it. */
  device: { attributes: Attributes | null } | null;
  /** The driver record has a QR password. */
  passwordRequired: boolean;
  /** The given password matched (ignored when none is required). */
  passwordOk: boolean;
}

/** Why a check-in cannot happen, in the order the driver would fix it; null when it can. */
export function qrCheckinProblem(f: QrCheckinFacts, ns: string): MessageKey | null {
  if (!f.enabled) return 'qrDriver.checkinDisabled';
  if (f.driverId === null) return 'qrDriver.noDriver';
  if (!f.device) return 'qrDriver.deviceNotFound';
  if (!qrEnabledDevice(f.device.attributes, ns)) return 'qrDriver.deviceNotEnabled';
  const current = deviceQrDriverId(f.device.attributes);
  if (current !== null && current !== f.driverId) return 'qrDriver.deviceTaken';
  if (f.passwordRequired && !f.passwordOk) return 'qrDriver.wrongPassword';
  return null;
}

/** The device id in a scanned or typed code: a number, or a link ending in /qr-driver/scan/{id}. */
export function scannedDeviceId(code: string): number | null {
  const text = code.trim();
  const m = /^(\d{1,15})$/.exec(text) ?? /\/qr-driver\/scan\/(\d{1,15})\/?(?:[?#].*)?$/.exec(text);
  const n = m ? Number(m[1]) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Driver record QR options (attributes of the driver): minutes are whole, 0 = at once. */
export interface QrDriverOptions {
  unlockDevice: boolean;
  logoutOnIgnitionOff: boolean;
  lockWithoutDriver: boolean;
  lockTimeoutMinutes: number;
  logoutTimeoutMinutes: number;
}

export function qrDriverOptions(attributes: Attributes | null | undefined): QrDriverOptions {
  const minutes = (v: unknown) => {
    const n = Number(v);
    return Number.isFinite(n) && n > 0 ? Math.min(Math.floor(n), 24 * 60) : 0;
  };
  return {
    unlockDevice: attrBool(attributes?.qrUnlockDevice),
    logoutOnIgnitionOff: attrBool(attributes?.qrLogoutOnIgnitionOff),
    lockWithoutDriver: attrBool(attributes?.qrLockWithoutDriver),
    lockTimeoutMinutes: minutes(attributes?.qrLockTimeout),
    logoutTimeoutMinutes: minutes(attributes?.qrLogoutTimeout),
  };
}

/** The server setting "lock and unlock buttons" ({ns}.lockUnlockButtons): the QR driver's view offers them. */
export const qrEngineButtons = (serverAttributes: Attributes | null | undefined, ns: string): boolean =>
  attrBool(serverAttributes?.[nsKey(ns, 'lockUnlockButtons')]);

/** POST /{ns}/qr-driver/engine: block or unblock the vehicle the driver is checked in to. */
export const qrEngineSchema = z.object({
  type: z.enum(['engineStop', 'engineResume'], { message: 'qrDriver.engineType' }),
});
