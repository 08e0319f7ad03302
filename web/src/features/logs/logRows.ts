// Advanced logs (SPEC §2 "Advanced Logs", §7 client A): the answer of GET /{ns}/server/logs,
// /{ns}/users/{id}/logs and /{ns}/devices/{id}/logs checked, and turned into table and Excel rows.
import { attrNumber, formatSpeedAge } from '@rastro/domain';
import { z } from 'zod';

export const LOG_SCOPES = ['server', 'user', 'device'] as const;
export type LogScope = (typeof LOG_SCOPES)[number];

/** The columns of the table and of the Excel sheet, with the sheet's widths. */
export const LOG_COLUMNS = [
  ['time', 22],
  ['user', 28],
  ['action', 16],
  ['object', 30],
  ['address', 18],
] as const;

const actionSchema = z.object({
  id: z.number(),
  actionTime: z.string(),
  address: z.string().nullable().optional(),
  userId: z.number(),
  userEmail: z.string().nullable().optional(),
  actionType: z.string(),
  objectType: z.string().nullable().optional(),
  objectId: z.number(),
  attributes: z.record(z.string(), z.unknown()).optional(),
});
export type ActionLog = z.infer<typeof actionSchema>;

/** The answer as a list of actions, or null when it is not one (SPEC §8 "invalid server response"). */
export function parseLogs(answer: unknown): ActionLog[] | null {
  const r = z.array(actionSchema).safeParse(answer);
  return r.success ? r.data : null;
}

/** The path of a scope, or null while its user/device is not chosen. */
export function logsPath(scope: LogScope, id: number | null): string | null {
  if (scope === 'server') return '/server/logs';
  if (!id || id <= 0) return null;
  return scope === 'user' ? `/users/${id}/logs` : `/devices/${id}/logs`;
}

export interface LogRow {
  key: number;
  time: number;
  user: string;
  action: string;
  object: string;
  address: string;
}

export interface LogNames {
  /**
   * Translated action type (create, edit, remove, link, unlink, login, logout, command); an engine command
   * (actionType 'command') is named from its attributes: type, outcome, speed and limit (engineInterlock.ts).
   */
  action(type: string, attributes: Record<string, unknown>): string;
  /** Translated object type (device, user, geofence...). */
  objectType(type: string): string;
  device(id: number): string | undefined;
  user(id: number): string | undefined;
}

/** Rows for the table: who (e-mail, else #id), what, on which object (its name when known), from where. */
export function toLogRows(actions: readonly ActionLog[], names: LogNames): LogRow[] {
  return actions.map((a) => {
    const type = a.objectType ?? '';
    const named =
      type === 'device' ? names.device(a.objectId) : type === 'user' ? names.user(a.objectId) : undefined;
    const object = type ? `${names.objectType(type)} ${named ?? `#${a.objectId}`}` : '';
    return {
      key: a.id,
      time: Date.parse(a.actionTime),
      user: a.userEmail ?? names.user(a.userId) ?? `#${a.userId}`,
      action: names.action(a.actionType, a.attributes ?? {}),
      object,
      address: a.address ?? '',
    };
  });
}

/** Rows whose text contains the query (case-insensitive). */
export function filterLogRows(rows: readonly LogRow[], query: string): LogRow[] {
  const q = query.trim().toLowerCase();
  return rows.filter((r) => `${r.user} ${r.action} ${r.object} ${r.address}`.toLowerCase().includes(q));
}

/**
 * The old speed an engine command was let through on (log attributes speed and speedAge, seconds; server
 * live/interlock.ts), its age as the reader's language says it ("há 12 minutos"); null when the entry has none.
 */
export function oldSpeedOf(
  attributes: Record<string, unknown>,
  locale: string,
): { speed: number; age: string } | null {
  const speed = attrNumber(attributes.speed);
  const seconds = attrNumber(attributes.speedAge);
  if (speed === undefined || seconds === undefined || seconds < 0) return null;
  return { speed, age: formatSpeedAge(seconds * 1000, locale) };
}
