// Row types of the embedded Traccar store (SQLite). Column names follow the JSON field names so a row maps
// to its API object with little code; `attributes` columns hold JSON text; dates are ISO strings; booleans 0/1.
import type { Generated } from 'kysely';

type Bool = number;

export interface UserRow {
  id: Generated<number>;
  name: string;
  login: string | null;
  email: string;
  phone: string | null;
  hashedPassword: string | null;
  readonly: Bool;
  administrator: Bool;
  map: string | null;
  latitude: number;
  longitude: number;
  zoom: number;
  coordinateFormat: string | null;
  disabled: Bool;
  expirationTime: string | null;
  deviceLimit: number;
  userLimit: number;
  deviceReadonly: Bool;
  limitCommands: Bool;
  disableReports: Bool;
  fixedEmail: Bool;
  poiLayer: string | null;
  totpKey: string | null;
  temporary: Bool;
  attributes: string;
}

export interface DeviceRow {
  id: Generated<number>;
  name: string;
  uniqueId: string;
  status: string | null;
  lastUpdate: string | null;
  positionId: number;
  groupId: number;
  calendarId: number;
  phone: string | null;
  model: string | null;
  contact: string | null;
  category: string | null;
  disabled: Bool;
  expirationTime: string | null;
  attributes: string;
}

export interface PositionRow {
  id: Generated<number>;
  deviceId: number;
  protocol: string | null;
  serverTime: string;
  deviceTime: string;
  fixTime: string;
  valid: Bool;
  latitude: number;
  longitude: number;
  altitude: number;
  speed: number;
  course: number;
  address: string | null;
  accuracy: number;
  network: string | null;
  geofenceIds: string | null;
  attributes: string;
}

export interface EventRow {
  id: Generated<number>;
  type: string;
  eventTime: string;
  deviceId: number;
  positionId: number;
  geofenceId: number;
  maintenanceId: number;
  attributes: string;
}

export interface GroupRow {
  id: Generated<number>;
  name: string;
  groupId: number;
  attributes: string;
}

export interface GeofenceRow {
  id: Generated<number>;
  name: string;
  description: string | null;
  area: string;
  calendarId: number;
  attributes: string;
}

export interface DriverRow {
  id: Generated<number>;
  name: string;
  uniqueId: string;
  attributes: string;
}

export interface CalendarRow {
  id: Generated<number>;
  name: string;
  data: string;
  attributes: string;
}

export interface MaintenanceRow {
  id: Generated<number>;
  name: string;
  type: string;
  start: number;
  period: number;
  attributes: string;
}

export interface NotificationRow {
  id: Generated<number>;
  type: string;
  description: string | null;
  always: Bool;
  calendarId: number;
  commandId: number;
  notificators: string;
  attributes: string;
}

export interface CommandRow {
  id: Generated<number>;
  description: string | null;
  type: string;
  textChannel: Bool;
  attributes: string;
}

export interface ComputedAttributeRow {
  id: Generated<number>;
  description: string;
  attribute: string;
  expression: string;
  type: string;
  priority: number;
}

export interface QueuedCommandRow {
  id: Generated<number>;
  deviceId: number;
  type: string;
  textChannel: Bool;
  attributes: string;
  createdAt: string;
}

export interface ServerRow {
  id: number;
  registration: Bool;
  readonly: Bool;
  deviceReadonly: Bool;
  map: string | null;
  bingKey: string | null;
  mapUrl: string | null;
  overlayUrl: string | null;
  latitude: number;
  longitude: number;
  zoom: number;
  forceSettings: Bool;
  coordinateFormat: string | null;
  limitCommands: Bool;
  disableReports: Bool;
  fixedEmail: Bool;
  poiLayer: string | null;
  announcement: string | null;
  attributes: string;
}

/**
 * All permission links in one table. ownerType/propertyType are the CONTRACT §3 key stems:
 * user, device, group, geofence, notification, calendar, attribute, driver, managedUser, command,
 * maintenance, linkedDevice. E.g. {"userId":1,"deviceId":2} is (user,1,device,2).
 */
export interface LinkRow {
  ownerType: string;
  ownerId: number;
  propertyType: string;
  propertyId: number;
}

export interface SessionRow {
  id: string;
  userId: number;
  origin: string | null;
  createdAt: string;
  expiresAt: string | null;
  lastSeenAt: string | null;
  /** The remember-me token this session was restored from (its SHA-256). */
  tokenId: string | null;
  /** The administrator who switched this session to another user (log in as). */
  originalUserId: number | null;
}

export interface TokenRow {
  id: string;
  userId: number;
  expiresAt: string;
  revoked: Bool;
  /** api (the default) or remember. */
  kind: Generated<string>;
  sessionId: string | null;
}

/** A share link of the extension API: the guest user it logs in as and its token (tokens.id = tokenId). */
export interface ShareRow {
  id: Generated<number>;
  creatorId: number;
  guestId: number;
  token: string;
  tokenId: string;
  deviceId: number | null;
  groupId: number | null;
  expirationTime: string;
  createdAt: string;
  targetName: string | null;
  creatorName: string | null;
}

export interface PasswordResetRow {
  tokenHash: string;
  userId: number;
  expiresAt: string;
}

export interface OrderRow {
  id: Generated<number>;
  uniqueId: string;
  description: string | null;
  fromAddress: string | null;
  toAddress: string | null;
  attributes: string;
}

/** A scheduled report (CONTRACT §3 Report); devices/groups/users are linked with the "report" stem. */
export interface ScheduledReportRow {
  id: Generated<number>;
  type: string;
  description: string | null;
  calendarId: number;
  attributes: string;
}

/** Audit trail (CONTRACT §3 Action): who did what to which object, and when. */
export interface ActionRow {
  id: Generated<number>;
  actionTime: string;
  address: string | null;
  userId: number;
  actionType: string;
  objectType: string | null;
  objectId: number;
  attributes: string;
}

/** API requests per UTC day (`YYYY-MM-DD`), for GET /api/statistics. */
export interface RequestStatsRow {
  day: string;
  requests: number;
}

/** A billing invoice (SPEC §3 Invoice); status is one of @rastro/domain INVOICE_STATUSES. */
export interface InvoiceRow {
  id: Generated<number>;
  userId: number;
  dueDate: string;
  value: number;
  status: string;
  paidDate: string | null;
  description: string;
  invoiceUrl: string | null;
  externalId: string | null;
  createdAt: string;
}

/** One integration's settings (SPEC §3 Integration), JSON by key (payment, invoice). */
export interface IntegrationRow {
  key: string;
  config: string;
}

/** The payment provider's customer id of a user. */
export interface BillingCustomerRow {
  userId: number;
  provider: string;
  externalId: string;
}

/** A tracker identifier no device has, as autolink remembers it (live/autolink.ts). */
export interface UnknownDeviceRow {
  uniqueId: string;
  protocol: string | null;
  firstSeen: string;
  lastSeen: string;
  reports: number;
  latitude: number | null;
  longitude: number | null;
  fixTime: string | null;
}

/** Per device, UTC hour and driver: the sums of fleet insights (live/activity.ts, @rastro/domain ACTIVITY_SUMS). */
export interface ActivityRow {
  deviceId: number;
  hour: number;
  driver: string;
  distance: number;
  drivingMs: number;
  idleMs: number;
  overspeedMs: number;
  overspeedExcess: number;
  harshAcceleration: number;
  harshBraking: number;
  harshCornering: number;
  alarmAcceleration: number;
  alarmBraking: number;
  alarmCornering: number;
  maxSpeed: number;
}

/** The monitoring center's alarm queue (db/repos/alarms.ts). */
export interface AlarmTableRow {
  id: Generated<number>;
  deviceId: number;
  type: string;
  detail: string;
  severity: string;
  positionId: number;
  lastPositionId: number;
  startTime: string;
  lastTime: string;
  count: number;
  state: string;
  assignedUserId: number | null;
  ackUserId: number | null;
  ackTime: string | null;
  resolveUserId: number | null;
  resolveTime: string | null;
  outcome: string | null;
}

export interface AlarmNoteRow {
  id: Generated<number>;
  alarmId: number;
  userId: number;
  noteTime: string;
  text: string;
}

export interface Database {
  users: UserRow;
  devices: DeviceRow;
  positions: PositionRow;
  events: EventRow;
  groups: GroupRow;
  geofences: GeofenceRow;
  drivers: DriverRow;
  calendars: CalendarRow;
  maintenances: MaintenanceRow;
  notifications: NotificationRow;
  commands: CommandRow;
  computed_attributes: ComputedAttributeRow;
  queued_commands: QueuedCommandRow;
  server: ServerRow;
  links: LinkRow;
  sessions: SessionRow;
  tokens: TokenRow;
  password_resets: PasswordResetRow;
  actions: ActionRow;
  orders: OrderRow;
  reports: ScheduledReportRow;
  request_stats: RequestStatsRow;
  invoices: InvoiceRow;
  integrations: IntegrationRow;
  billing_customers: BillingCustomerRow;
  shares: ShareRow;
  unknown_devices: UnknownDeviceRow;
  activity: ActivityRow;
  alarms: AlarmTableRow;
  alarm_notes: AlarmNoteRow;
}
