// SPEC §3/§4/§9 notifications: rule types, event types, alarms, channels, toast colours/positions/sounds and how
// they are read from a notification rule's attributes.
import { attrBool, attrString, DEFAULT_NS, nsKey } from './attributes.ts';
import { z } from 'zod';
import { EVENT_TYPES, type Attributes, type Notification } from './types.ts';

/** Notification rule types of SPEC §3. */
export const NOTIFICATION_TYPES = [
  'alarm',
  'deviceOnline',
  'deviceOffline',
  'textMessage',
  'deviceUnknown',
  'geofenceExit',
  'geofenceEnter',
  'ignitionOff',
  'ignitionOn',
  'deviceMoving',
  'deviceStopped',
  'deviceOverspeed',
  'commandResult',
  'driverChanged',
  'deviceFuelDrop',
  'maintenance',
  'deviceInactive',
  'queuedCommandSent',
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** Event types of SPEC §9 (display order). */
export const SPEC_EVENT_TYPES = [
  'alarm',
  'deviceOnline',
  'deviceOffline',
  'deviceMoving',
  'deviceStopped',
  'ignitionOn',
  'ignitionOff',
  'geofenceEnter',
  'geofenceExit',
  'deviceOverspeed',
  'commandResult',
  'driverChanged',
  'deviceFuelDrop',
  'maintenance',
  'deviceInactive',
  'textMessage',
  'deviceUnknown',
  'queuedCommandSent',
] as const;
export type SpecEventType = (typeof SPEC_EVENT_TYPES)[number];

export const ALARM_TYPES = [
  'sos',
  'vibration',
  'overspeed',
  'lowBattery',
  'powerCut',
  'geofence',
  'accident',
  'tow',
  'jamming',
  'tampering',
] as const;
export type AlarmType = (typeof ALARM_TYPES)[number];

/** Notificators (channels) of SPEC §3. */
export const NOTIFICATOR_CHANNELS = ['web', 'firebase', 'telegram', 'sms', 'mail', 'command'] as const;
export type NotificatorChannel = (typeof NOTIFICATOR_CHANNELS)[number];

export const NOTIFICATION_COLORS = [
  'soft-red',
  'red',
  'soft-green',
  'green',
  'soft-yellow',
  'yellow',
  'soft-info',
  'info',
] as const;
export type NotificationColor = (typeof NOTIFICATION_COLORS)[number];
export const DEFAULT_NOTIFICATION_COLOR: NotificationColor = 'soft-info';

export const NOTIFICATION_POSITIONS = ['top-right', 'top-left', 'bottom-right', 'bottom-left'] as const;
export type NotificationPosition = (typeof NOTIFICATION_POSITIONS)[number];
export const DEFAULT_NOTIFICATION_POSITION: NotificationPosition = 'bottom-right';

export const NOTIFICATION_WIDTH_PX = 380;
export const NOTIFICATION_AUTO_CLOSE_MS = 4_500;

export const SOUND_COUNT = 24;
export const BUILTIN_SOUNDS = Array.from({ length: SOUND_COUNT }, (_, i) => `audio${i + 1}`);
export const DEFAULT_SOUND = 'audio1';

export type NotificationSound =
  { kind: 'builtin'; id: string; url: string } | { kind: 'custom'; url: string } | { kind: 'mute' };

/** URL of a built-in sound: /{ns}/assets/custom/sounds/audioN.wav. */
export function soundUrl(id: string, ns: string = DEFAULT_NS): string {
  return `/${ns}/assets/custom/sounds/${id}.wav`;
}

/** Auto-close delay: 4500 ms, 0 when pinned (never closes). */
export function autoCloseMs(pinned: boolean): number {
  return pinned ? 0 : NOTIFICATION_AUTO_CLOSE_MS;
}

function member<T extends string>(list: readonly T[], v: unknown): T | undefined {
  return typeof v === 'string' && (list as readonly string[]).includes(v) ? (v as T) : undefined;
}

/**
 * Sound from `{ns}.sound` ('audio1'…'audio24', 'custom' with `{ns}.soundURL`, 'mute'/'none'); default audio1.
 * A custom sound without an http(s) or root-relative URL falls back to the default.
 */
export function resolveSound(
  attributes: Attributes | null | undefined,
  ns: string = DEFAULT_NS,
): NotificationSound {
  const raw = attrString(attributes?.[nsKey(ns, 'sound')])?.trim();
  if (raw === 'mute' || raw === 'none' || raw === 'off') return { kind: 'mute' };
  if (raw === 'custom') {
    const url = attrString(attributes?.[nsKey(ns, 'soundURL')])?.trim();
    if (url && /^(https?:\/\/|\/)/i.test(url)) return { kind: 'custom', url };
  }
  const id = raw && BUILTIN_SOUNDS.includes(raw) ? raw : DEFAULT_SOUND;
  return { kind: 'builtin', id, url: soundUrl(id, ns) };
}

export interface NotificationStyle {
  color: NotificationColor;
  position: NotificationPosition;
  pinned: boolean;
  autoClose: number;
  width: number;
  sound: NotificationSound;
}

/** Toast look and sound of an event, from its notification rule's attributes (missing rule ⇒ defaults). */
export function resolveNotificationStyle(
  attributes: Attributes | null | undefined,
  ns: string = DEFAULT_NS,
  muted = false,
): NotificationStyle {
  const pinned = attrBool(attributes?.[nsKey(ns, 'pin')]);
  return {
    color: member(NOTIFICATION_COLORS, attributes?.[nsKey(ns, 'color')]) ?? DEFAULT_NOTIFICATION_COLOR,
    position:
      member(NOTIFICATION_POSITIONS, attributes?.[nsKey(ns, 'position')]) ?? DEFAULT_NOTIFICATION_POSITION,
    pinned,
    autoClose: autoCloseMs(pinned),
    width: NOTIFICATION_WIDTH_PX,
    sound: muted ? { kind: 'mute' } : resolveSound(attributes, ns),
  };
}

/** The notificators comma string of a rule as a list ("web,mail" ⇒ ['web','mail']). */
export function parseNotificators(value: string | null | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

export function formatNotificators(list: readonly string[]): string {
  return [...new Set(list.map((s) => s.trim()).filter((s) => s !== ''))].join(',');
}

/** The alarms comma attribute of an alarm rule. */
export function parseAlarms(value: unknown): string[] {
  return parseNotificators(attrString(value));
}

// ---------------------------------------------------------------------------------------------------------------
// The rule editor (SPEC §3 Notification rule, §5 Notification): form values, their validation and the conversion
// to and from the Traccar Notification (CONTRACT §3). Messages are i18n keys: the SPEC §5 ones live in the domain
// message catalogue (`validation.*`), the editor's own in the web `notifications` namespace.

/** The two editors: every rule (/notifications, dialog `notifications`) or the device-bound event variant. */
export type RuleVariant = 'notifications' | 'events';

/** Sound choices of SPEC §9: audio1…audio24, a custom URL or mute. */
export const SOUND_CHOICES = [...BUILTIN_SOUNDS, 'custom', 'mute'] as const;

/** Card colours per SPEC §9 colour name (background, text), shared by the live cards and the editor preview. */
export const NOTIFICATION_COLOR_STYLES: Readonly<Record<NotificationColor, { bg: string; fg: string }>> = {
  'soft-red': { bg: '#fdecea', fg: '#611a15' },
  red: { bg: '#d32f2f', fg: '#ffffff' },
  'soft-green': { bg: '#edf7ed', fg: '#1e4620' },
  green: { bg: '#2e7d32', fg: '#ffffff' },
  'soft-yellow': { bg: '#fff4e5', fg: '#663c00' },
  // darker than Traccar's #ed6c02 and #0288d1, where white text read at 3.0:1 and 3.9:1 (WCAG AA asks 4.5:1)
  yellow: { bg: '#b45309', fg: '#ffffff' },
  'soft-info': { bg: '#e5f6fd', fg: '#014361' },
  info: { bg: '#01579b', fg: '#ffffff' },
};

export interface NotificationRuleForm {
  id: number;
  type: string;
  description: string;
  notificators: string[];
  alarms: string[];
  /** "All devices": the rule applies to every device of its users. */
  always: boolean;
  /** 0 = none (required in the events variant). */
  calendarId: number;
  /** Saved command sent by the `command` channel; 0 = none. */
  commandId: number;
  color: NotificationColor;
  /** audio1…audio24, 'custom' or 'mute'. */
  sound: string;
  soundURL: string;
  pin: boolean;
  position: NotificationPosition;
  /** Devices the rule is linked to (events variant). */
  deviceIds: number[];
  /** Attributes the editor does not manage (geofenceIds, priority, …), kept as they were. */
  extra: Attributes;
}

/** Attribute names (after `{ns}.`) the editor owns; `{ns}.devices` stays in `extra` until the events editor
 * rewrites it, so editing a device-bound rule on /notifications keeps the hint. */
const STYLE_KEYS = ['color', 'sound', 'soundURL', 'pin', 'position'] as const;

export function emptyRuleForm(variant: RuleVariant = 'notifications'): NotificationRuleForm {
  return {
    id: 0,
    type: variant === 'notifications' ? 'alarm' : '',
    description: '',
    notificators: ['web'],
    alarms: [],
    always: variant === 'notifications',
    calendarId: 0,
    commandId: 0,
    color: DEFAULT_NOTIFICATION_COLOR,
    sound: DEFAULT_SOUND,
    soundURL: '',
    pin: false,
    position: DEFAULT_NOTIFICATION_POSITION,
    deviceIds: [],
    extra: {},
  };
}

/** Device ids remembered in `{ns}.devices` (comma list) by the events editor. */
export function ruleDeviceHint(attributes: Attributes | null | undefined, ns: string = DEFAULT_NS): number[] {
  return parseNotificators(attrString(attributes?.[nsKey(ns, 'devices')]))
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
}

/** A stored rule as form values; `deviceIds` are the devices it is linked to (events variant). */
export function ruleToForm(
  n: Notification,
  ns: string = DEFAULT_NS,
  deviceIds: readonly number[] = [],
): NotificationRuleForm {
  const attrs = n.attributes ?? {};
  const style = resolveNotificationStyle(attrs, ns);
  const rawSound = attrString(attrs[nsKey(ns, 'sound')])?.trim();
  const sound =
    style.sound.kind === 'mute'
      ? 'mute'
      : rawSound === 'custom'
        ? 'custom'
        : style.sound.kind === 'builtin'
          ? style.sound.id
          : DEFAULT_SOUND;
  const managed = new Set<string>(['alarms', ...STYLE_KEYS.map((k) => nsKey(ns, k))]);
  const extra: Attributes = {};
  for (const [k, v] of Object.entries(attrs)) if (!managed.has(k)) extra[k] = v;
  return {
    id: n.id,
    type: n.type ?? '',
    description: n.description ?? '',
    notificators: parseNotificators(n.notificators),
    alarms: parseAlarms(attrs.alarms),
    always: !!n.always,
    calendarId: n.calendarId ?? 0,
    commandId: n.commandId ?? 0,
    color: style.color,
    sound,
    soundURL: attrString(attrs[nsKey(ns, 'soundURL')]) ?? '',
    pin: style.pinned,
    position: style.position,
    deviceIds: [...deviceIds],
    extra,
  };
}

export interface RuleFormOptions {
  variant?: RuleVariant;
  ns?: string;
  /** Offered types (GET /api/notifications/types); default the SPEC §3 types. */
  types?: readonly string[];
  /** Offered channels (GET /api/notifications/notificators); default the SPEC §3 channels. */
  channels?: readonly string[];
}

const idList = z.array(z.number().int().positive());

/**
 * The rule form schema with the SPEC §5 messages: type (validation.typeRequired), at least one channel
 * (validation.channelsRequired), alarms for the alarm type (validation.alarmsRequired); the events variant also
 * needs devices (validation.devicesRequired) and a calendar (validation.calendarRequired). The command channel
 * needs a saved command and a custom sound an http(s) or root-relative URL (keys of the `notifications` namespace).
 */
export function ruleFormSchema(opts: RuleFormOptions = {}) {
  const variant = opts.variant ?? 'notifications';
  const types: readonly string[] = opts.types?.length ? opts.types : NOTIFICATION_TYPES;
  const channels: readonly string[] = opts.channels?.length ? opts.channels : NOTIFICATOR_CHANNELS;
  return z
    .object({
      id: z.number().int().min(0),
      type: z
        .string({ error: 'validation.typeRequired' })
        .refine((t) => types.includes(t), 'validation.typeRequired'),
      description: z.string().trim().max(128, 'validation.tooLong'),
      notificators: z
        .array(
          z.string().refine((c) => channels.includes(c), 'validation.invalidOption'),
          {
            error: 'validation.channelsRequired',
          },
        )
        .min(1, 'validation.channelsRequired'),
      alarms: z.array(z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'validation.invalidOption')),
      always: z.boolean(),
      calendarId: z.number().int().min(0),
      commandId: z.number().int().min(0),
      color: z.enum(NOTIFICATION_COLORS, 'validation.invalidOption'),
      sound: z.enum(SOUND_CHOICES, 'validation.invalidOption'),
      soundURL: z.string().trim().max(2048, 'validation.tooLong'),
      pin: z.boolean(),
      position: z.enum(NOTIFICATION_POSITIONS, 'validation.invalidOption'),
      deviceIds: idList,
      extra: z.record(z.string(), z.unknown()),
    })
    .superRefine((v, ctx) => {
      const issue = (path: string, message: string) =>
        ctx.addIssue({ code: 'custom', path: [path], message });
      if (v.type === 'alarm' && v.alarms.length === 0) issue('alarms', 'validation.alarmsRequired');
      if (v.notificators.includes('command') && v.commandId <= 0)
        issue('commandId', 'notifications:validation.commandRequired');
      if (v.sound === 'custom' && !/^(https?:\/\/\S+|\/\S*)$/i.test(v.soundURL))
        issue('soundURL', 'notifications:validation.soundUrl');
      if (variant === 'events') {
        if (v.deviceIds.length === 0) issue('deviceIds', 'validation.devicesRequired');
        if (v.calendarId <= 0) issue('calendarId', 'validation.calendarRequired');
      }
    });
}

export type RuleParseResult =
  { ok: true; rule: Notification; deviceIds: number[] } | { ok: false; errors: Record<string, string> };

/** Validates the form and builds the Notification to save (PUT when id > 0, else POST) and its devices. */
export function parseRuleForm(form: NotificationRuleForm, opts: RuleFormOptions = {}): RuleParseResult {
  const ns = opts.ns ?? DEFAULT_NS;
  const variant = opts.variant ?? 'notifications';
  const r = ruleFormSchema(opts).safeParse(form);
  if (!r.success) {
    const errors: Record<string, string> = {};
    for (const i of r.error.issues) errors[i.path.map(String).join('.') || '_'] ??= i.message;
    return { ok: false, errors };
  }
  const v = r.data;
  const attributes: Attributes = { ...(v.extra as Attributes) };
  if (v.type === 'alarm') attributes.alarms = [...new Set(v.alarms)].join(',');
  attributes[nsKey(ns, 'color')] = v.color;
  attributes[nsKey(ns, 'sound')] = v.sound;
  if (v.sound === 'custom') attributes[nsKey(ns, 'soundURL')] = v.soundURL;
  attributes[nsKey(ns, 'pin')] = v.pin;
  attributes[nsKey(ns, 'position')] = v.position;
  const deviceIds = variant === 'events' ? [...new Set(v.deviceIds)] : [];
  if (variant === 'events') attributes[nsKey(ns, 'devices')] = deviceIds.join(',');
  return {
    ok: true,
    deviceIds,
    rule: {
      id: v.id,
      type: v.type,
      description: v.description || null,
      notificators: formatNotificators(v.notificators),
      always: variant === 'events' ? false : v.always,
      calendarId: v.calendarId,
      commandId: v.notificators.includes('command') ? v.commandId : 0,
      attributes,
    },
  };
}

/**
 * The form rules (ruleFormSchema, SPEC §5) applied to a notification as the API receives it (POST/PUT
 * /api/notifications): a type, at least one channel, alarms for the alarm type, a saved command for the command
 * channel. Every event type the server knows is accepted. Null when valid, else the first field and its key.
 */
export function notificationRuleProblem(
  n: Notification,
  opts: RuleFormOptions = {},
): { field: string; key: string } | null {
  const r = parseRuleForm(ruleToForm(n, opts.ns), { types: EVENT_TYPES, ...opts });
  if (r.ok) return null;
  const [field, key] = Object.entries(r.errors)[0];
  return { field, key };
}

/** Device links to add and to remove when a rule goes from `before` to `after`. */
export function linkChanges(
  before: readonly number[],
  after: readonly number[],
): { add: number[]; remove: number[] } {
  const b = new Set(before);
  const a = new Set(after);
  return { add: [...a].filter((id) => !b.has(id)), remove: [...b].filter((id) => !a.has(id)) };
}
