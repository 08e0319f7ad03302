// The device form of SPEC §3 (general, chip, vehicle and installation fields) as a zod schema whose messages are
// i18n keys, the device attribute keys under the namespace, and the form ⇄ Traccar device mapping.
import { z } from 'zod';
import { DEFAULT_NS, nsKey } from './attributes.ts';
import { DEVICE_STATES } from './filters.ts';
import { emptyToUndefined, K, optColor, optDate, optId, optNumber, optText } from './formFields.ts';
import { MAP_ICON_TYPES } from './map.ts';
import type { Attributes, Device } from './types.ts';

export const installationSchema = z.object({
  company: optText(),
  installer: optText(),
  phone: optText(40),
  email: z.preprocess(emptyToUndefined, z.email(K('validation.emailInvalid')).optional()),
  date: optDate(),
  observation: optText(2000),
  address: optText(500),
});
export type InstallationInput = z.infer<typeof installationSchema>;

export const deviceFormSchema = z
  .object({
    id: z.number().int().optional(),
    name: z
      .string({ error: K('validation.deviceNameRequired') })
      .trim()
      .min(1, K('validation.deviceNameRequired'))
      .max(128, K('validation.tooLong')),
    uniqueId: z
      .string({ error: K('validation.deviceUniqueIdRequired') })
      .trim()
      .min(1, K('validation.deviceUniqueIdRequired'))
      .max(128, K('validation.tooLong')),
    iccid: optText(32),
    phone: optText(40),
    operator: optText(64),
    broker: optText(64),
    model: optText(128),
    plate: optText(16),
    renavam: optText(32),
    brand: optText(64),
    technology: optText(64),
    protocol: optText(64),
    apn: optText(128),
    monthlyValue: optNumber(),
    simActivationDate: optDate(),
    simExpirationDate: optDate(),
    color: optColor(),
    colorExtra: optColor(),
    icon: z.preprocess(emptyToUndefined, z.enum(MAP_ICON_TYPES, K('validation.invalidIcon')).optional()),
    category: optText(64),
    groupId: optId(),
    driverUniqueId: optText(128),
    /** Odometer in km as typed (stored as totalDistance metres). */
    odometer: optNumber(),
    fuelTank: optNumber(),
    /** Engine hours as typed (stored as hours in ms). */
    engineHours: optNumber(),
    qrDriver: z.boolean().optional(),
    state: z.preprocess(emptyToUndefined, z.enum(DEVICE_STATES, K('validation.invalidState')).optional()),
    installation: installationSchema.optional(),
  })
  .superRefine((v, ctx) => {
    if (
      v.simActivationDate &&
      v.simExpirationDate &&
      Date.parse(v.simExpirationDate) < Date.parse(v.simActivationDate)
    ) {
      ctx.addIssue({ code: 'custom', path: ['simExpirationDate'], message: K('validation.simDatesOrder') });
    }
  });
export type DeviceFormInput = z.input<typeof deviceFormSchema>;
export type DeviceForm = z.output<typeof deviceFormSchema>;

/** Attribute names the device form writes (namespace-dependent ones take `ns`). */
export function deviceAttributeKeys(ns: string = DEFAULT_NS) {
  return {
    iccid: 'iccid',
    operator: 'operator',
    broker: 'broker',
    plate: 'placa',
    renavam: 'renavam',
    brand: 'device.gpsBrand',
    model: 'device.model',
    technology: 'device.technology',
    protocol: 'protocol',
    apn: 'apn',
    monthlyValue: 'monthlyValue',
    simActivationDate: 'simActivationDate',
    simExpirationDate: 'simExpirationDate',
    color: nsKey(ns, 'color'),
    colorExtra: nsKey(ns, 'color_extra'),
    icon: 'icon',
    driverUniqueId: 'driverUniqueId',
    fuelTank: 'fuelCapacity',
    qrDriver: nsKey(ns, 'qrDriver'),
    state: 'device.state',
    installation: 'installation',
  } as const;
}

/**
 * Maps a parsed device form onto a Traccar device body (keeping unknown attributes of `base`) and the
 * accumulators to PUT (totalDistance m, hours ms) when odometer/engine hours were typed.
 */
export function deviceFormToDevice(
  form: DeviceForm,
  base: Partial<Device> = {},
  ns: string = DEFAULT_NS,
): {
  device: Partial<Device> & { name: string; uniqueId: string; attributes: Attributes };
  accumulators?: { totalDistance?: number; hours?: number };
} {
  const keys = deviceAttributeKeys(ns);
  const attributes: Attributes = { ...(base.attributes ?? {}) };
  delete attributes.plate;
  const set = (k: string, v: unknown) => {
    if (v === undefined) delete attributes[k];
    else attributes[k] = typeof v === 'object' ? JSON.stringify(v) : (v as string | number | boolean);
  };
  set(keys.iccid, form.iccid);
  set(keys.operator, form.operator);
  set(keys.broker, form.broker);
  set(keys.plate, form.plate);
  set(keys.renavam, form.renavam);
  set(keys.brand, form.brand);
  set(keys.model, form.model);
  set(keys.technology, form.technology);
  set(keys.protocol, form.protocol);
  set(keys.apn, form.apn);
  set(keys.monthlyValue, form.monthlyValue);
  set(keys.simActivationDate, form.simActivationDate);
  set(keys.simExpirationDate, form.simExpirationDate);
  set(keys.color, form.color);
  set(keys.colorExtra, form.colorExtra);
  set(keys.icon, form.icon);
  set(keys.driverUniqueId, form.driverUniqueId);
  set(keys.fuelTank, form.fuelTank);
  set(keys.qrDriver, form.qrDriver ? true : undefined);
  set(keys.state, form.state);
  const inst = form.installation && Object.values(form.installation).some((v) => v !== undefined);
  set(keys.installation, inst ? form.installation : undefined);
  const device = {
    ...base,
    id: form.id ?? base.id ?? 0,
    name: form.name,
    uniqueId: form.uniqueId,
    phone: form.phone ?? null,
    model: form.model ?? null,
    category: form.category ?? null,
    groupId: form.groupId ?? 0,
    attributes,
  };
  const acc: { totalDistance?: number; hours?: number } = {};
  if (form.odometer !== undefined) acc.totalDistance = form.odometer * 1000;
  if (form.engineHours !== undefined) acc.hours = form.engineHours * 3_600_000;
  return Object.keys(acc).length ? { device, accumulators: acc } : { device };
}
