// Which driver a QR driver user stands for and which vehicle it is checked in to (user attributes). Apart from
// qrDriver.ts and its zod schemas because the map, in the signed-in page's first download, needs only these.
import { nsKey } from './attributes.ts';
import type { Attributes } from './types.ts';

/** The driver record's id a QR driver user stands for ({ns}.isQrDriverId), or null. */
export function qrDriverIdOf(attributes: Attributes | null | undefined, ns: string): number | null {
  const v = attributes?.[nsKey(ns, 'isQrDriverId')];
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** The device a QR driver is checked in to ({ns}.isQrDeviceId), or null. */
export function qrDeviceIdOf(attributes: Attributes | null | undefined, ns: string): number | null {
  const v = attributes?.[nsKey(ns, 'isQrDeviceId')];
  const n = typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : null;
}
