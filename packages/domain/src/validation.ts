// SPEC §5 validation: zod 4 form schemas whose messages are i18n keys (see messages.ts), plus the save/delete,
// device-limit and route-load checks. Shared by the web forms and the server.
import { z } from 'zod';
import { DEFAULT_NS, nsKey } from './attributes.ts';
import { SUBJECT_MAX } from './constants.ts';
import { BODY_LIMITS, MESSAGE_CHANNELS, SUBJECT_CHANNELS, type MessageChannel } from './directMessage.ts';
import type { MessageKey } from './messages.ts';
import { NOTIFICATION_COLORS, NOTIFICATION_POSITIONS, NOTIFICATION_TYPES } from './notifications.ts';
import { isValidPermissionString } from './permissions.ts';
import { emptyToUndefined, K, optText } from './formFields.ts';
import type { Attributes } from './types.ts';
import { numericId } from './saveRequest.ts';

/** The first issue's message key, or null when valid (for simple forms showing one message). */
export function firstErrorKey(result: {
  success: boolean;
  error?: { issues: { message: string }[] };
}): string | null {
  return result.success ? null : (result.error?.issues[0]?.message ?? K('validation.checkFormData'));
}

/** Field path ⇒ first message key of that field. */
export function fieldErrors(error: {
  issues: { path: PropertyKey[]; message: string }[];
}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of error.issues) {
    const key = i.path.map(String).join('.') || '_';
    out[key] ??= i.message;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Login family (codes of SPEC §8 as keys 'loginErrors.<CODE>')

const filled = (key: MessageKey) => z.string({ error: key }).trim().min(1, key);

export const loginSchema = z.object({
  email: filled(K('loginErrors.FILL_ALL_FIELDS')),
  password: z.string({ error: K('loginErrors.FILL_ALL_FIELDS') }).min(1, K('loginErrors.FILL_ALL_FIELDS')),
  remember: z.boolean().optional(),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const recoverSchema = z.object({ email: filled(K('loginErrors.FILL_EMAIL_FIELD')) });
export const newPasswordSchema = z.object({
  token: filled(K('loginErrors.FILL_TOKEN_FIELD')),
  password: z.string().min(4, K('validation.passwordMinLength')),
});
export const tokenLoginSchema = z.object({ token: filled(K('loginErrors.FILL_ALL_FIELDS')) });

// ---------------------------------------------------------------------------------------------------------------
// User form

const nameField = z
  .string({ error: K('validation.nameRequired') })
  .trim()
  .min(1, K('validation.nameRequired'))
  .min(3, K('validation.nameMinLength'));
const loginField = z
  .string({ error: K('validation.emailRequired') })
  .trim()
  .min(1, K('validation.emailRequired'))
  .min(4, K('validation.emailMinLength'));

const passwordPair = (required: boolean) =>
  z
    .object({
      password: z.string().optional(),
      confirmPassword: z.string().optional(),
    })
    .superRefine((v, ctx) => {
      const p = v.password ?? '';
      if (p === '' && !required) {
        if ((v.confirmPassword ?? '') !== '')
          ctx.addIssue({
            code: 'custom',
            path: ['confirmPassword'],
            message: K('validation.passwordMismatch'),
          });
        return;
      }
      if (p === '')
        ctx.addIssue({ code: 'custom', path: ['password'], message: K('validation.passwordRequired') });
      else if (p.length < 4)
        ctx.addIssue({ code: 'custom', path: ['password'], message: K('validation.passwordMinLength') });
      else if (p !== v.confirmPassword)
        ctx.addIssue({
          code: 'custom',
          path: ['confirmPassword'],
          message: K('validation.passwordMismatch'),
        });
    });

/**
 * User form: name ≥ 3, username/e-mail ≥ 4, password ≥ 4 with confirmation. `mode: 'edit'` allows an empty
 * password (keeps the old one). Other user fields pass through untouched.
 */
export function userFormSchema(mode: 'create' | 'edit' = 'create') {
  return z
    .object({ name: nameField, email: loginField })
    .passthrough()
    .and(passwordPair(mode === 'create'));
}

export const advancedPermsSchema = z
  .string()
  .refine((s) => isValidPermissionString(s), K('validation.invalidPermissionString'));

// ---------------------------------------------------------------------------------------------------------------
// Geofence, notification

export const geofenceFormSchema = z
  .object({
    name: z
      .string({ error: K('validation.geofenceNameRequired') })
      .trim()
      .min(1, K('validation.geofenceNameRequired'))
      .max(128, K('validation.tooLong')),
    description: optText(512),
  })
  .passthrough();

const notificationBase = {
  type: z.enum(NOTIFICATION_TYPES, K('validation.typeRequired')),
  notificators: z
    .array(z.string().min(1), { error: K('validation.channelsRequired') })
    .min(1, K('validation.channelsRequired')),
  alarms: z.array(z.string().min(1)).optional(),
  color: z.preprocess(
    emptyToUndefined,
    z.enum(NOTIFICATION_COLORS, K('validation.invalidOption')).optional(),
  ),
  position: z.preprocess(
    emptyToUndefined,
    z.enum(NOTIFICATION_POSITIONS, K('validation.invalidOption')).optional(),
  ),
  sound: optText(512),
  soundURL: optText(2048),
  pin: z.boolean().optional(),
  always: z.boolean().optional(),
};

function requireAlarms(v: { type: string; alarms?: string[] }, ctx: z.RefinementCtx) {
  if (v.type === 'alarm' && (!v.alarms || v.alarms.length === 0)) {
    ctx.addIssue({ code: 'custom', path: ['alarms'], message: K('validation.alarmsRequired') });
  }
}

/** Notification rule: type, at least one channel, alarms when the type is alarm. */
export const notificationFormSchema = z.object(notificationBase).superRefine(requireAlarms);

/** The events variant also needs devices and a calendar; driverChanged rules need a driver. */
export const notificationEventFormSchema = z
  .object({
    ...notificationBase,
    deviceIds: z
      .array(z.number().int().positive(), { error: K('validation.devicesRequired') })
      .min(1, K('validation.devicesRequired')),
    calendarId: z
      .number({ error: K('validation.calendarRequired') })
      .int()
      .positive(K('validation.calendarRequired')),
    driverId: z.number().int().optional(),
  })
  .superRefine((v, ctx) => {
    requireAlarms(v, ctx);
    if (v.type === 'driverChanged' && !(v.driverId && v.driverId > 0)) {
      ctx.addIssue({ code: 'custom', path: ['driverId'], message: K('validation.driverRequired') });
    }
  });

/** Where a driver is asked for, one must be selected. */
export const driverSelectionSchema = z.object({
  driverId: z
    .number({ error: K('validation.driverRequired') })
    .int()
    .positive(K('validation.driverRequired')),
});

// ---------------------------------------------------------------------------------------------------------------
// Direct message

/**
 * Direct message to one user. `available` = availableChannels(recipient, senderIsAdmin). Body required; subject
 * required for push/web/mail, ≤ 100; body limits per selected channel; at least one channel (key
 * 'validation.channelRequired' = 'Selecione pelo menos um canal'). bodyTooLong issues carry params
 * {channel, max}.
 */
export function directMessageSchema(available: readonly MessageChannel[] = MESSAGE_CHANNELS) {
  return z
    .object({
      channels: z.array(z.string(), { error: K('validation.channelRequired') }),
      subject: z.string().default(''),
      body: z.string({ error: K('validation.bodyRequired') }),
    })
    .superRefine((v, ctx) => {
      const channels = [...new Set(v.channels)];
      if (channels.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['channels'], message: K('validation.channelRequired') });
        return;
      }
      for (const c of channels) {
        if (!(available as readonly string[]).includes(c)) {
          ctx.addIssue({
            code: 'custom',
            path: ['channels'],
            message: K('validation.channelNotAvailable'),
            params: { channel: c },
          });
        }
      }
      const chosen = channels.filter((c): c is MessageChannel =>
        (MESSAGE_CHANNELS as readonly string[]).includes(c),
      );
      if (v.body.trim() === '')
        ctx.addIssue({ code: 'custom', path: ['body'], message: K('validation.bodyRequired') });
      if (chosen.some((c) => SUBJECT_CHANNELS.includes(c)) && v.subject.trim() === '') {
        ctx.addIssue({ code: 'custom', path: ['subject'], message: K('validation.subjectRequired') });
      }
      if (v.subject.length > SUBJECT_MAX) {
        ctx.addIssue({
          code: 'custom',
          path: ['subject'],
          message: K('validation.subjectTooLong'),
          params: { max: SUBJECT_MAX },
        });
      }
      for (const c of chosen) {
        if (v.body.length > BODY_LIMITS[c]) {
          ctx.addIssue({
            code: 'custom',
            path: ['body'],
            message: K('validation.bodyTooLong'),
            params: { channel: c, max: BODY_LIMITS[c] },
          });
        }
      }
    });
}

// ---------------------------------------------------------------------------------------------------------------
// Saves, deletes

export const ID_GUARDED_DELETES = ['group', 'computed', 'maintenance'] as const;

/**
 * Null when the delete may proceed. Groups, computed attributes and maintenance need an id above 0; other
 * objects need an id that is present (any finite non-zero number: the anchor's -1 is never stored).
 */
export function deleteDenial(kind: string, id: unknown): MessageKey | null {
  const n = numericId(id);
  if ((ID_GUARDED_DELETES as readonly string[]).includes(kind))
    return Number.isFinite(n) && n > 0 ? null : 'validation.idRequired';
  return Number.isFinite(n) && n !== 0 ? null : 'validation.idRequired';
}

// ---------------------------------------------------------------------------------------------------------------
// Device limit (SPEC §5)

export interface DeviceLimitInput {
  /** Server-reported allowed limit (response header devicelimit); null/undefined when not reported. */
  serverAllowed?: number | null;
  /** Server attribute `{ns}.deviceLimit`; only > 0 counts. */
  serverAttributeLimit?: number | null;
  /** Devices on the whole server (checked against the attribute limit). */
  serverDeviceCount: number;
  /** user.deviceLimit (-1 unlimited in Traccar; only ≥ 0 is a limit here). */
  userLimit?: number | null;
  /** Devices of the user. */
  userDeviceCount: number;
  isAdmin?: boolean;
}

export type DeviceLimitReason = 'serverAllowed' | 'serverAttribute' | 'user';

/**
 * Adding is blocked when: the server-reported allowed limit is 0 or below; the server attribute limit is above
 * 0 and reached; or the user's limit is 0 or more and reached (Traccar's -1 = unlimited never blocks;
 * administrators skip the user limit).
 */
export function deviceLimitCheck(
  i: DeviceLimitInput,
): { allowed: true } | { allowed: false; reason: DeviceLimitReason; key: MessageKey } {
  const block = (reason: DeviceLimitReason) => ({
    allowed: false as const,
    reason,
    key: K('validation.deviceLimitReached'),
  });
  if (typeof i.serverAllowed === 'number' && Number.isFinite(i.serverAllowed) && i.serverAllowed <= 0)
    return block('serverAllowed');
  if (
    typeof i.serverAttributeLimit === 'number' &&
    i.serverAttributeLimit > 0 &&
    i.serverDeviceCount >= i.serverAttributeLimit
  )
    return block('serverAttribute');
  if (!i.isAdmin && typeof i.userLimit === 'number' && i.userLimit >= 0 && i.userDeviceCount >= i.userLimit)
    return block('user');
  return { allowed: true };
}

/** Reads `{ns}.deviceLimit` from server attributes. */
export function serverDeviceLimitAttribute(
  attributes: Attributes | null | undefined,
  ns: string = DEFAULT_NS,
): number | null {
  const v = attributes?.[nsKey(ns, 'deviceLimit')];
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/** User creation against a manager's userLimit (> 0 is a limit, -1 unlimited, 0 not a manager). */
export function userLimitReached(userLimit: number, managedCount: number, isAdmin = false): boolean {
  if (isAdmin || userLimit === -1) return false;
  return userLimit === 0 || managedCount >= userLimit;
}

// ---------------------------------------------------------------------------------------------------------------
// Route load (SPEC §5 / §8)

/**
 * Null when usable. The response must exist and, except for export, be an array ('route.invalidResponse' /
 * 'route.invalidData').
 */
export function routeResponseProblem(response: unknown, exported = false): MessageKey | null {
  if (response === null || response === undefined || response === '') return 'route.invalidResponse';
  if (!exported && !Array.isArray(response)) return 'route.invalidData';
  return null;
}

/** Error of a route load: 404 ⇒ no data for the period; JSON parse problem ⇒ bad format; else invalid response. */
export function routeLoadErrorKey(error: { status?: number; name?: string } | null | undefined): MessageKey {
  if (error?.status === 404) return 'route.noData';
  if (error?.name === 'SyntaxError') return 'route.badFormat';
  return 'route.invalidResponse';
}
