// The device form of SPEC §3 as typed values (strings), to and from a Traccar device, validated by the domain's
// deviceFormSchema (SPEC §5 messages) and mapped back with deviceFormToDevice.
import {
  attrNumber,
  deviceAttributeKeys,
  deviceFormSchema,
  deviceFormToDevice,
  deviceLimitCheck,
  devicePlate,
  fieldErrors,
  installationSchema,
  serverDeviceLimitAttribute,
  type Attributes,
  type Device,
  type DeviceForm,
  type InstallationInput,
  type Position,
  type Server,
  type User,
} from '@rastro/domain';

/** The form's text fields, in the schema's order (the print sheet's): all but the id, the QR-driver flag and the
 * installation. */
export type TextField = Exclude<keyof DeviceForm, 'id' | 'qrDriver' | 'installation'>;
export const TEXT_FIELDS = Object.keys(deviceFormSchema.shape).filter(
  (k) => k !== 'id' && k !== 'qrDriver' && k !== 'installation',
) as TextField[];

export type InstallationField = keyof InstallationInput;
export const INSTALLATION_FIELDS = Object.keys(installationSchema.shape) as InstallationField[];

export type DeviceFormValues = Record<TextField, string> & {
  id: number;
  qrDriver: boolean;
  installation: Record<InstallationField, string>;
};

const str = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

export function emptyDeviceForm(): DeviceFormValues {
  const base = Object.fromEntries(TEXT_FIELDS.map((k) => [k, ''])) as Record<TextField, string>;
  const installation = Object.fromEntries(INSTALLATION_FIELDS.map((k) => [k, ''])) as Record<
    InstallationField,
    string
  >;
  return { ...base, groupId: '0', id: 0, qrDriver: false, installation };
}

/** The installation attribute is stored as a JSON string (or an object from older saves). */
export function readInstallation(v: unknown): Partial<Record<InstallationField, string>> {
  let obj: unknown = v;
  if (typeof v === 'string') {
    try {
      obj = JSON.parse(v);
    } catch {
      return {};
    }
  }
  if (!obj || typeof obj !== 'object') return {};
  const out: Partial<Record<InstallationField, string>> = {};
  for (const k of INSTALLATION_FIELDS) {
    const x = (obj as Record<string, unknown>)[k];
    if (x !== undefined && x !== null) out[k] = String(x);
  }
  return out;
}

const round = (n: number, d: number) => Math.round(n * 10 ** d) / 10 ** d;

/** Form values of an existing device; odometer (km) and engine hours (h) come from its latest position. */
export function deviceToForm(device: Device, position: Position | undefined, ns: string): DeviceFormValues {
  const keys = deviceAttributeKeys(ns);
  const a: Attributes = device.attributes ?? {};
  const f = emptyDeviceForm();
  // the text fields kept in attributes (qrDriver and installation are not text), then the device's own columns
  for (const [k, attr] of Object.entries(keys) as [TextField, string][])
    if (typeof f[k] === 'string') f[k] = str(a[attr]);
  f.id = device.id;
  f.name = device.name ?? '';
  f.uniqueId = device.uniqueId ?? '';
  f.phone = device.phone ?? '';
  f.model = device.model ?? f.model;
  f.category = device.category ?? '';
  f.groupId = String(device.groupId ?? 0);
  f.plate = devicePlate(device) ?? '';
  f.simActivationDate = f.simActivationDate.slice(0, 10);
  f.simExpirationDate = f.simExpirationDate.slice(0, 10);
  const qr = a[keys.qrDriver];
  f.qrDriver = qr === true || qr === 'true';
  const km = attrNumber(position?.attributes?.totalDistance);
  const hours = attrNumber(position?.attributes?.hours);
  f.odometer = km !== undefined ? String(round(km / 1000, 3)) : '';
  f.engineHours = hours !== undefined ? String(round(hours / 3_600_000, 2)) : '';
  f.installation = { ...f.installation, ...readInstallation(a[keys.installation]) };
  return f;
}

/** Validates with the domain schema; errors are message keys of the `common` namespace by field path. */
export function parseDeviceForm(v: DeviceFormValues) {
  const { id, qrDriver, installation, ...text } = v;
  const r = deviceFormSchema.safeParse({
    ...text,
    id: id > 0 ? id : undefined,
    qrDriver,
    installation,
  });
  return r.success
    ? { ok: true as const, form: r.data }
    : { ok: false as const, errors: fieldErrors(r.error) };
}

/** Body for PUT/POST and the accumulators to PUT when odometer or engine hours changed. */
export function formToRequests(
  form: DeviceForm,
  initial: DeviceFormValues,
  current: DeviceFormValues,
  base: Partial<Device> | undefined,
  ns: string,
) {
  const { device, accumulators } = deviceFormToDevice(form, base ?? {}, ns);
  const acc: { totalDistance?: number; hours?: number } = {};
  if (accumulators) {
    if (current.odometer !== initial.odometer && accumulators.totalDistance !== undefined)
      acc.totalDistance = accumulators.totalDistance;
    if (current.engineHours !== initial.engineHours && accumulators.hours !== undefined)
      acc.hours = accumulators.hours;
  }
  return { device, accumulators: Object.keys(acc).length ? acc : undefined };
}

/**
 * SPEC §5 device-limit check before adding. The `devicelimit` header is the licence's device cap (0 = none, as
 * the server sends it); the allowed count left is that cap minus the devices on the server.
 */
export function addDeviceDenial(input: {
  headerLimit: number;
  server: Pick<Server, 'attributes'> | null;
  user: Pick<User, 'deviceLimit' | 'administrator'> | null;
  ns: string;
  serverDeviceCount: number;
  userDeviceCount: number;
}): string | null {
  const r = deviceLimitCheck({
    serverAllowed: input.headerLimit > 0 ? input.headerLimit - input.serverDeviceCount : null,
    serverAttributeLimit: serverDeviceLimitAttribute(input.server?.attributes, input.ns),
    serverDeviceCount: input.serverDeviceCount,
    userLimit: input.user?.deviceLimit ?? -1,
    userDeviceCount: input.userDeviceCount,
    isAdmin: !!input.user?.administrator,
  });
  return r.allowed ? null : r.key;
}
