// Traccar entity shapes as they travel over the API (CONTRACT §3). Dates are ISO strings, ids are numbers,
// "no reference" is 0. Units: speed knots, distance metres, durations milliseconds.

export type Attributes = Record<string, string | number | boolean | null | undefined>;

export interface Server {
  id: number;
  attributes: Attributes;
  registration: boolean;
  readonly: boolean;
  deviceReadonly: boolean;
  map: string | null;
  bingKey: string | null;
  mapUrl: string | null;
  overlayUrl: string | null;
  latitude: number;
  longitude: number;
  zoom: number;
  forceSettings: boolean;
  coordinateFormat: string | null;
  limitCommands: boolean;
  disableReports: boolean;
  fixedEmail: boolean;
  poiLayer: string | null;
  announcement: string | null;
  version: string;
  emailEnabled: boolean;
  textEnabled: boolean;
  geocoderEnabled: boolean;
  storageSpace: number[] | null;
  newServer: boolean;
  openIdEnabled: boolean;
  openIdForce: boolean;
}

export interface User {
  id: number;
  attributes: Attributes;
  name: string;
  login: string | null;
  email: string;
  phone: string | null;
  readonly: boolean;
  administrator: boolean;
  map: string | null;
  latitude: number;
  longitude: number;
  zoom: number;
  coordinateFormat: string | null;
  disabled: boolean;
  expirationTime: string | null;
  deviceLimit: number;
  userLimit: number;
  deviceReadonly: boolean;
  limitCommands: boolean;
  disableReports: boolean;
  fixedEmail: boolean;
  poiLayer: string | null;
  totpKey: string | null;
  temporary: boolean;
  password: string | null;
}

export type DeviceStatus = 'online' | 'offline' | 'unknown';

export interface Device {
  id: number;
  attributes: Attributes;
  groupId: number;
  calendarId: number;
  name: string;
  uniqueId: string;
  status: DeviceStatus;
  lastUpdate: string | null;
  positionId: number;
  phone: string | null;
  model: string | null;
  contact: string | null;
  category: string | null;
  disabled: boolean;
  expirationTime: string | null;
}

export interface Position {
  id: number;
  attributes: Attributes;
  deviceId: number;
  protocol: string | null;
  serverTime: string;
  deviceTime: string;
  fixTime: string;
  valid: boolean;
  latitude: number;
  longitude: number;
  altitude: number;
  speed: number;
  course: number;
  address: string | null;
  accuracy: number;
  network: Record<string, unknown> | null;
  geofenceIds: number[] | null;
  /** The message had no fix and the location is the last known one (live only; stored positions are false). */
  outdated?: boolean;
}

export interface Event {
  id: number;
  attributes: Attributes;
  deviceId: number;
  type: string;
  eventTime: string;
  positionId: number;
  geofenceId: number;
  maintenanceId: number;
}

export interface Group {
  id: number;
  attributes: Attributes;
  groupId: number;
  name: string;
}

export interface Geofence {
  id: number;
  attributes: Attributes;
  calendarId: number;
  name: string;
  description: string | null;
  area: string;
}

export interface Driver {
  id: number;
  attributes: Attributes;
  name: string;
  uniqueId: string;
}

export interface Calendar {
  id: number;
  attributes: Attributes;
  name: string;
  data: string;
}

export interface Maintenance {
  id: number;
  attributes: Attributes;
  name: string;
  type: string;
  start: number;
  period: number;
}

export interface Notification {
  id: number;
  attributes: Attributes;
  description: string | null;
  calendarId: number;
  always: boolean;
  type: string;
  commandId: number;
  notificators: string;
}

export interface Command {
  id: number;
  attributes: Attributes;
  deviceId: number;
  type: string;
  textChannel: boolean;
  description: string | null;
}

export interface QueuedCommand {
  id: number;
  attributes: Attributes;
  deviceId: number;
  type: string;
  textChannel: boolean;
}

export interface ComputedAttribute {
  id: number;
  description: string;
  attribute: string;
  expression: string;
  type: 'string' | 'number' | 'boolean';
  priority: number;
}

export interface ReportBase {
  deviceId: number;
  deviceName: string;
  distance: number;
  averageSpeed: number;
  maxSpeed: number;
  spentFuel: number;
  startOdometer: number;
  endOdometer: number;
  startTime: string;
  endTime: string;
}

export interface ReportSummary extends ReportBase {
  engineHours: number;
  startHours: number;
  endHours: number;
}

export interface ReportTrip extends ReportBase {
  startPositionId: number;
  endPositionId: number;
  startLat: number;
  startLon: number;
  endLat: number;
  endLon: number;
  startAddress: string | null;
  endAddress: string | null;
  duration: number;
  driverUniqueId: string | null;
  driverName: string | null;
}

export interface ReportStop extends ReportBase {
  positionId: number;
  latitude: number;
  longitude: number;
  address: string | null;
  duration: number;
  engineHours: number;
}

/** A socket message: any subset of these keys, each an array. `{}` is the keepalive. */
export interface SocketMessage {
  devices?: Device[];
  positions?: Position[];
  events?: Event[];
  users?: User[];
  logs?: unknown[];
  /** The monitoring desk's new, folded or handled alarms (issue #32): alarms.ts `Alarm`s (not imported: a cycle). */
  alarms?: Array<{ id: number; deviceId: number }>;
  /** Ids of devices gone from the user's sight: deleted or unlinked (issue #28; Traccar's clients ignore the key). */
  removedDevices?: number[];
}

export const EVENT_TYPES = [
  'commandResult',
  'deviceOnline',
  'deviceUnknown',
  'deviceOffline',
  'deviceInactive',
  'queuedCommandSent',
  'deviceMoving',
  'deviceStopped',
  'deviceOverspeed',
  'deviceFuelDrop',
  'deviceFuelIncrease',
  'geofenceEnter',
  'geofenceExit',
  'geofenceCrossed',
  'proximityEnter',
  'proximityExit',
  'unaccompaniedMotion',
  'alarm',
  'ignitionOn',
  'ignitionOff',
  'maintenance',
  'driverChanged',
  'media',
] as const;

export const COMMAND_TYPES = [
  'custom',
  'deviceIdentification',
  'positionSingle',
  'positionPeriodic',
  'positionStop',
  'engineStop',
  'engineResume',
  'alarmArm',
  'alarmDisarm',
  'alarmDismiss',
  'setTimezone',
  'requestPhoto',
  'powerOff',
  'rebootDevice',
  'factoryReset',
  'sendSms',
  'sendUssd',
  'sosNumber',
  'silenceTime',
  'setPhonebook',
  'message',
  'voiceMessage',
  'outputControl',
  'voiceMonitoring',
  'setAgps',
  'setIndicator',
  'configuration',
  'getVersion',
  'firmwareUpdate',
  'setConnection',
  'setOdometer',
  'getModemStatus',
  'getDeviceStatus',
  'setSpeedLimit',
  'modePowerSaving',
  'modeDeepSleep',
  'videoStart',
  'videoStop',
  'alarmGeofence',
  'alarmBattery',
  'alarmSos',
  'alarmRemove',
  'alarmClock',
  'alarmSpeed',
  'alarmFall',
  'alarmVibration',
] as const;
