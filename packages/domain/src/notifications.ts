// SPEC §3/§4/§9 notifications: rule types, event types, alarms, channels, toast colours/positions/sounds and how
// they are read from a notification rule's attributes.
import { attrBool, attrString, DEFAULT_NS, nsKey } from './attributes.ts';
import type { Attributes } from './types.ts';

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
