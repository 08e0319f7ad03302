// The Server settings dialog (SPEC §3 "Server settings", CONTRACT Server): the fields it edits, where each lives
// (a Server field or a free-form attribute, {ns}-prefixed where the product owns it), and the zod rules that turn
// the form back into the full Server object PUT /api/server replaces. Attributes the dialog does not know are kept;
// an emptied text attribute is removed. Error values are keys of the web's `serverSettings` namespace.
import { z } from 'zod';
import { nsKey, attrBool, attrString, DEFAULT_NS } from './attributes.ts';
import { BLOCK_MAX_SPEED_MAX_KMH } from './engineInterlock.ts';
import { SCORE_WEIGHT_MAX } from './scores.ts';
import { COORDINATE_FORMATS } from './format.ts';
import { SUPPORTED_LOCALES } from './locale.ts';
import type { Attributes, Server } from './types.ts';
import { ALTITUDE_UNITS, DISTANCE_UNITS, SPEED_UNITS, VOLUME_UNITS } from './units.ts';

/** Boolean settings kept as attributes: form name → attribute name (without {ns} when `plain`). */
export const SERVER_FLAG_ATTRIBUTES = {
  enableAdvancedPerms: { key: 'enableAdvancedPerms', plain: false },
  enableBilling: { key: 'enableBilling', plain: false },
  qrDriverCheckin: { key: 'qrDriverCheckin', plain: false },
  lockUnlockButtons: { key: 'lockUnlockButtons', plain: false },
  showStops: { key: 'showStops', plain: false },
  showEvents: { key: 'showEvents', plain: false },
  twelveHourFormat: { key: 'twelveHourFormat', plain: true },
} as const;
export type ServerFlag = keyof typeof SERVER_FLAG_ATTRIBUTES;

/** Text settings kept as attributes. Units, currency, prices and timezone use Traccar's plain names. */
export const SERVER_TEXT_ATTRIBUTES = {
  lang: { key: 'lang', plain: false },
  deviceLimit: { key: 'deviceLimit', plain: false },
  deviceAttributes: { key: 'deviceAttributes', plain: false },
  blockMaxSpeed: { key: 'blockMaxSpeed', plain: false },
  googleKey: { key: 'googleKey', plain: false },
  smsUrl: { key: 'smsApiUrl', plain: false },
  smsKey: { key: 'smsApiKey', plain: false },
  smsType: { key: 'smsApiType', plain: false },
  smsRefer: { key: 'smsApiRefer', plain: false },
  speedUnit: { key: 'speedUnit', plain: true },
  distanceUnit: { key: 'distanceUnit', plain: true },
  altitudeUnit: { key: 'altitudeUnit', plain: true },
  volumeUnit: { key: 'volumeUnit', plain: true },
  currency: { key: 'currency', plain: true },
  fuelPrice: { key: 'fuelPrice', plain: true },
  litersx100km: { key: 'litersx100km', plain: true },
  timezone: { key: 'timezone', plain: true },
  // the weights of the driver and vehicle scores (scores.ts), {ns}.score.*
  scoreOverspeed: { key: 'score.overspeed', plain: false },
  scoreExcess: { key: 'score.excess', plain: false },
  scoreAcceleration: { key: 'score.acceleration', plain: false },
  scoreBraking: { key: 'score.braking', plain: false },
  scoreCornering: { key: 'score.cornering', plain: false },
  scoreIdle: { key: 'score.idle', plain: false },
  scoreNight: { key: 'score.night', plain: false },
} as const;

/** The score weights' form fields, in the order of SCORE_WEIGHT_KEYS. */
export const SCORE_WEIGHT_FIELDS = [
  'scoreOverspeed',
  'scoreExcess',
  'scoreAcceleration',
  'scoreBraking',
  'scoreCornering',
  'scoreIdle',
  'scoreNight',
] as const satisfies readonly ServerTextSetting[];
export type ServerTextSetting = keyof typeof SERVER_TEXT_ATTRIBUTES;

/** Attributes stored as numbers rather than text. */
const NUMERIC: ReadonlySet<ServerTextSetting> = new Set([
  'deviceLimit',
  'fuelPrice',
  'litersx100km',
  'blockMaxSpeed',
  ...SCORE_WEIGHT_FIELDS,
]);

export const SMS_API_TYPES = ['get', 'post', 'json'] as const;

export type ServerSettingsValues = {
  registration: boolean;
  readonly: boolean;
  deviceReadonly: boolean;
  limitCommands: boolean;
  forceSettings: boolean;
  map: string;
  bingKey: string;
  latitude: string;
  longitude: string;
  zoom: string;
  coordinateFormat: string;
  announcement: string;
} & Record<ServerFlag, boolean> &
  Record<ServerTextSetting, string>;

const attrName = (ns: string, d: { key: string; plain: boolean }) => (d.plain ? d.key : nsKey(ns, d.key));

export function serverToSettings(server: Server, ns: string = DEFAULT_NS): ServerSettingsValues {
  const a: Attributes = server.attributes ?? {};
  const flags = Object.fromEntries(
    Object.entries(SERVER_FLAG_ATTRIBUTES).map(([k, d]) => [k, attrBool(a[attrName(ns, d)])]),
  ) as Record<ServerFlag, boolean>;
  const texts = Object.fromEntries(
    Object.entries(SERVER_TEXT_ATTRIBUTES).map(([k, d]) => [k, attrString(a[attrName(ns, d)]) ?? '']),
  ) as Record<ServerTextSetting, string>;
  return {
    registration: !!server.registration,
    readonly: !!server.readonly,
    deviceReadonly: !!server.deviceReadonly,
    limitCommands: !!server.limitCommands,
    forceSettings: !!server.forceSettings,
    map: server.map ?? '',
    bingKey: server.bingKey ?? '',
    latitude: String(server.latitude ?? 0),
    longitude: String(server.longitude ?? 0),
    zoom: String(server.zoom ?? 0),
    coordinateFormat: server.coordinateFormat ?? '',
    announcement: server.announcement ?? '',
    ...flags,
    ...texts,
  };
}

const decimal = (min: number, max: number, key: string) =>
  z
    .string()
    .trim()
    .transform((s) => s.replace(',', '.'))
    .pipe(
      z
        .string()
        .regex(/^-?\d+(\.\d+)?$/, key)
        .transform(Number)
        .pipe(z.number().min(min, key).max(max, key)),
    );
const optionalOf = <T extends readonly [string, ...string[]]>(values: T, key: string) =>
  z.union([z.literal(''), z.enum(values, { message: key })], { message: key });
const optionalDecimal = (min: number, max: number, key: string) =>
  z.union([z.literal(''), decimal(min, max, key)], { message: key });
const text = (max: number) => z.string().trim().max(max, 'validation.tooLong');

export const serverSettingsSchema = z.object({
  registration: z.boolean(),
  readonly: z.boolean(),
  deviceReadonly: z.boolean(),
  limitCommands: z.boolean(),
  forceSettings: z.boolean(),
  map: text(128),
  bingKey: text(256),
  latitude: decimal(-90, 90, 'validation.latitude'),
  longitude: decimal(-180, 180, 'validation.longitude'),
  zoom: z
    .string()
    .trim()
    .regex(/^\d{1,2}$/, 'validation.zoom')
    .transform(Number)
    .pipe(z.number().max(22, 'validation.zoom')),
  coordinateFormat: optionalOf(COORDINATE_FORMATS, 'validation.choice'),
  announcement: text(4096),
  ...(Object.fromEntries(Object.keys(SERVER_FLAG_ATTRIBUTES).map((k) => [k, z.boolean()])) as Record<
    ServerFlag,
    z.ZodBoolean
  >),
  lang: optionalOf(SUPPORTED_LOCALES, 'validation.choice'),
  deviceLimit: z.union(
    [
      z.literal(''),
      z
        .string()
        .trim()
        .regex(/^\d{1,9}$/, 'validation.deviceLimit'),
    ],
    {
      message: 'validation.deviceLimit',
    },
  ),
  deviceAttributes: text(1024),
  // engine-block interlock (engineInterlock.ts): km/h, 0 = block only a stopped vehicle, empty = the default 20
  blockMaxSpeed: optionalDecimal(0, BLOCK_MAX_SPEED_MAX_KMH, 'validation.blockMaxSpeed'),
  googleKey: text(256),
  smsUrl: z.union([z.literal(''), z.url({ message: 'validation.url', protocol: /^https?$/ })], {
    message: 'validation.url',
  }),
  smsKey: text(512),
  smsType: optionalOf(SMS_API_TYPES, 'validation.choice'),
  smsRefer: text(256),
  speedUnit: optionalOf(SPEED_UNITS, 'validation.choice'),
  distanceUnit: optionalOf(DISTANCE_UNITS, 'validation.choice'),
  altitudeUnit: optionalOf(ALTITUDE_UNITS, 'validation.choice'),
  volumeUnit: optionalOf(VOLUME_UNITS, 'validation.choice'),
  currency: z.union(
    [
      z.literal(''),
      z
        .string()
        .trim()
        .regex(/^[A-Z]{3}$/, 'validation.currency'),
    ],
    {
      message: 'validation.currency',
    },
  ),
  fuelPrice: optionalDecimal(0, 1_000_000, 'validation.positive'),
  litersx100km: optionalDecimal(0, 1_000, 'validation.positive'),
  timezone: text(64),
  ...(Object.fromEntries(
    SCORE_WEIGHT_FIELDS.map((k) => [k, optionalDecimal(0, SCORE_WEIGHT_MAX, 'validation.scoreWeight')]),
  ) as Record<(typeof SCORE_WEIGHT_FIELDS)[number], ReturnType<typeof optionalDecimal>>),
});

/**
 * Validates the form and returns the Server to PUT: the loaded server with the edited fields replaced, its other
 * attributes kept, and emptied text settings removed. Numbers (deviceLimit, fuelPrice, litersx100km, blockMaxSpeed) are
 * stored as numbers; flags as booleans (an unset flag is removed rather than stored false).
 */
export function settingsToServer(
  server: Server,
  values: ServerSettingsValues,
  ns: string = DEFAULT_NS,
): { ok: true; server: Server } | { ok: false; errors: Record<string, string> } {
  const r = serverSettingsSchema.safeParse(values);
  if (!r.success) {
    const errors: Record<string, string> = {};
    for (const issue of r.error.issues) {
      const key = String(issue.path[0] ?? 'form');
      errors[key] ??= issue.message.startsWith('validation.') ? issue.message : 'validation.invalid';
    }
    return { ok: false, errors };
  }
  const v = r.data;
  const attributes: Attributes = { ...(server.attributes ?? {}) };
  for (const [k, d] of Object.entries(SERVER_FLAG_ATTRIBUTES)) {
    const name = attrName(ns, d);
    if (v[k as ServerFlag]) attributes[name] = true;
    else delete attributes[name];
  }
  for (const [k, d] of Object.entries(SERVER_TEXT_ATTRIBUTES)) {
    const name = attrName(ns, d);
    const raw = String(v[k as ServerTextSetting] ?? '').trim();
    if (raw === '') delete attributes[name];
    else attributes[name] = NUMERIC.has(k as ServerTextSetting) ? Number(raw.replace(',', '.')) : raw;
  }
  return {
    ok: true,
    server: {
      ...server,
      registration: v.registration,
      readonly: v.readonly,
      deviceReadonly: v.deviceReadonly,
      limitCommands: v.limitCommands,
      forceSettings: v.forceSettings,
      map: v.map || null,
      bingKey: v.bingKey || null,
      latitude: v.latitude,
      longitude: v.longitude,
      zoom: v.zoom,
      coordinateFormat: v.coordinateFormat || null,
      announcement: v.announcement || null,
      attributes,
    },
  };
}
