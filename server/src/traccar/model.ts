// Row ↔ JSON mapping of the embedded store (CONTRACT §1, §3). Column names equal JSON field names, so a
// per-entity column list (name → kind) drives both directions: booleans are 0/1, `attributes` is JSON text,
// dates are stored as `toISOString()` and served as `…000+00:00`.
import { formatTraccarDate, type Attributes } from '@rastro/domain';
import type { UserRow } from './auth.ts';

export type ColKind = 'bool' | 'int' | 'num' | 'str' | 'strNull' | 'date' | 'attrs';
export type Columns = Record<string, ColKind>;

export type Json = Record<string, unknown>;
export type Row = Record<string, unknown> & { id: number };

export function parseAttributes(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string' || text === '') return {};
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A stored row as its API object. `excludeAttributes` answers `attributes: {}` (CONTRACT §1). */
export function rowToJson(columns: Columns, row: Row, excludeAttributes = false): Json {
  const out: Json = { id: row.id };
  for (const [name, kind] of Object.entries(columns)) {
    const v = row[name];
    switch (kind) {
      case 'bool':
        out[name] = v === 1 || v === true;
        break;
      case 'int':
      case 'num':
        out[name] = typeof v === 'number' ? v : Number(v ?? 0) || 0;
        break;
      case 'str':
        out[name] = v === null || v === undefined ? '' : String(v);
        break;
      case 'strNull':
        out[name] = v === null || v === undefined ? null : String(v);
        break;
      case 'date':
        out[name] = formatTraccarDate(v as string | null);
        break;
      case 'attrs':
        out[name] = excludeAttributes ? {} : parseAttributes(v);
        break;
    }
  }
  return out;
}

/** A validated input object as column values (without id). */
export function inputToRow(columns: Columns, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(columns)) {
    const v = input[name];
    switch (kind) {
      case 'bool':
        out[name] = v ? 1 : 0;
        break;
      case 'int':
      case 'num':
        out[name] = typeof v === 'number' ? v : 0;
        break;
      case 'str':
        out[name] = typeof v === 'string' ? v : '';
        break;
      case 'strNull':
      case 'date':
        out[name] = typeof v === 'string' ? v : null;
        break;
      case 'attrs':
        out[name] = JSON.stringify(v && typeof v === 'object' ? v : {});
        break;
    }
  }
  return out;
}

export const COLUMNS = {
  devices: {
    attributes: 'attrs',
    groupId: 'int',
    calendarId: 'int',
    name: 'str',
    uniqueId: 'str',
    status: 'strNull',
    lastUpdate: 'date',
    positionId: 'int',
    phone: 'strNull',
    model: 'strNull',
    contact: 'strNull',
    category: 'strNull',
    disabled: 'bool',
    expirationTime: 'date',
  },
  groups: { attributes: 'attrs', groupId: 'int', name: 'str' },
  geofences: { attributes: 'attrs', calendarId: 'int', name: 'str', description: 'strNull', area: 'str' },
  drivers: { attributes: 'attrs', name: 'str', uniqueId: 'str' },
  calendars: { attributes: 'attrs', name: 'str', data: 'str' },
  maintenances: { attributes: 'attrs', name: 'str', type: 'str', start: 'num', period: 'num' },
  notifications: {
    attributes: 'attrs',
    description: 'strNull',
    calendarId: 'int',
    always: 'bool',
    type: 'str',
    commandId: 'int',
    notificators: 'str',
  },
  commands: { attributes: 'attrs', description: 'strNull', type: 'str', textChannel: 'bool' },
  orders: {
    attributes: 'attrs',
    uniqueId: 'str',
    description: 'strNull',
    fromAddress: 'strNull',
    toAddress: 'strNull',
  },
  reports: { attributes: 'attrs', calendarId: 'int', type: 'str', description: 'strNull' },
  computed_attributes: {
    description: 'str',
    attribute: 'str',
    expression: 'str',
    type: 'str',
    priority: 'int',
  },
  users: {
    attributes: 'attrs',
    name: 'str',
    login: 'strNull',
    email: 'str',
    phone: 'strNull',
    readonly: 'bool',
    administrator: 'bool',
    map: 'strNull',
    latitude: 'num',
    longitude: 'num',
    zoom: 'int',
    coordinateFormat: 'strNull',
    disabled: 'bool',
    expirationTime: 'date',
    deviceLimit: 'int',
    userLimit: 'int',
    deviceReadonly: 'bool',
    limitCommands: 'bool',
    disableReports: 'bool',
    fixedEmail: 'bool',
    poiLayer: 'strNull',
    totpKey: 'strNull',
    temporary: 'bool',
  },
  server: {
    attributes: 'attrs',
    registration: 'bool',
    readonly: 'bool',
    deviceReadonly: 'bool',
    map: 'strNull',
    bingKey: 'strNull',
    mapUrl: 'strNull',
    overlayUrl: 'strNull',
    latitude: 'num',
    longitude: 'num',
    zoom: 'int',
    forceSettings: 'bool',
    coordinateFormat: 'strNull',
    limitCommands: 'bool',
    disableReports: 'bool',
    fixedEmail: 'bool',
    poiLayer: 'strNull',
    announcement: 'strNull',
  },
} satisfies Record<string, Columns>;

/**
 * A user row as the API User for the user `viewerId` (docs/security.md "User answers"): the password is write-only
 * (always null) and the TOTP secret is answered to the user themself only (null to managers and administrators).
 */
export function userToJson(row: Row, viewerId: number | null, excludeAttributes = false): Json {
  const json: Json = { ...rowToJson(COLUMNS.users, row, excludeAttributes), password: null };
  if (row.id !== viewerId) json.totpKey = null;
  return json;
}

/** A device row as the API Device: a null stored status is served as "offline". */
export function deviceToJson(row: Row, excludeAttributes = false): Json {
  // DEVICE_JSON_SQL says the same in SQL
  const json = rowToJson(COLUMNS.devices, row, excludeAttributes);
  if (json.status !== 'online' && json.status !== 'unknown') json.status = 'offline';
  return json;
}

/** deviceToJson's own rule as SQLite builds a device's JSON (rowJsonSql.ts). */
export const DEVICE_JSON_SQL = {
  status: "CASE WHEN status IN ('online', 'unknown') THEN status ELSE 'offline' END",
};

/** A stored user row as the domain's rules read a user (permissions, user rules): flags as booleans, attributes parsed. */
export function domainUser(row: UserRow) {
  return {
    id: row.id,
    administrator: !!row.administrator,
    readonly: !!row.readonly,
    deviceReadonly: !!row.deviceReadonly,
    limitCommands: !!row.limitCommands,
    disableReports: !!row.disableReports,
    disabled: !!row.disabled,
    userLimit: row.userLimit,
    deviceLimit: row.deviceLimit,
    expirationTime: row.expirationTime,
    temporary: !!row.temporary,
    attributes: parseAttributes(row.attributes) as Attributes,
  };
}
