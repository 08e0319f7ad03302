// Columns of each report, shared by the on-screen table, the browser's Excel export and the server's .xlsx answers
// (GET /api/reports/{type} with the Excel Accept header): values in the user's units (speed from knots, distance
// from metres, volume from litres), durations, engine hours, and the fuel cost (spent fuel × server attribute
// fuelPrice) in the currency of the language (or the server's currency). Labels come from the message catalogue.
import {
  formatCurrency,
  formatDistance,
  formatDuration,
  formatEngineHours,
  formatSpeed,
  formatVolume,
} from './format.ts';
import { isMessageKey, type MessageKey } from './messages.ts';
import type { ReportType } from './reports.ts';
import type { Device, Event, Position, ReportStop, ReportSummary, ReportTrip } from './types.ts';
import { convertDistance, convertSpeed, convertVolume, msToHours, UNIT_LABELS, type Units } from './units.ts';

export interface ReportRowByType {
  summary: ReportSummary;
  trips: ReportTrip;
  stops: ReportStop;
  events: Event;
  route: Position;
}
export type ReportRow = ReportRowByType[ReportType];

export interface ColumnContext {
  units: Units;
  locale: string;
  formatTime: (iso: string | number) => string;
  /** server attribute fuelPrice (0 when not set) */
  fuelPrice: number;
  /**
   * server attribute litersx100km (0 when not set): the fleet's consumption, which adds an estimated fuel column
   * (and its cost with fuelPrice) to the summary and trips reports.
   */
  litersPer100km?: number;
  /** ISO 4217 code from the server attribute currency, else the language's */
  currency?: string;
  deviceName: (id: number) => string;
  /** the text of a catalogue key in the reader's language */
  label: (key: MessageKey) => string;
}

export interface Column<R> {
  key: string;
  label: string;
  /** text shown in the table */
  cell: (row: R) => string;
  /** value written to Excel (numbers stay numbers); defaults to the cell text */
  value?: (row: R) => string | number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;
const coords = (lat: number, lon: number) => `${lat.toFixed(5)}, ${lon.toFixed(5)}`;

export function fuelCost(spentFuel: number, fuelPrice: number): number | null {
  if (!(fuelPrice > 0) || !Number.isFinite(spentFuel)) return null;
  return round2(spentFuel * fuelPrice);
}

/** Litres a distance (metres) burns at `litersPer100km`; null when no consumption is set. */
export function estimatedFuel(distanceMeters: number, litersPer100km: number): number | null {
  if (!(litersPer100km > 0) || !Number.isFinite(distanceMeters)) return null;
  return round2((Math.max(0, distanceMeters) / 1000) * (litersPer100km / 100));
}

/** Translated name of an event type (the type itself when the catalogue has none): Traccar's event names. */
export function eventTypeName(type: string, label: (key: MessageKey) => string): string {
  const key = `events.${type}`;
  return isMessageKey(key) ? label(key) : type;
}

export function reportColumns(type: ReportType, c: ColumnContext): Column<ReportRow>[] {
  const { units, locale } = c;
  const col = (key: string) => {
    const k = `reportColumns.${key}`;
    return isMessageKey(k) ? c.label(k) : key;
  };
  const su = UNIT_LABELS[units.speedUnit];
  const du = UNIT_LABELS[units.distanceUnit];
  const vu = UNIT_LABELS[units.volumeUnit];
  const device = <R extends { deviceId: number; deviceName?: string }>(): Column<R> => ({
    key: 'device',
    label: col('device'),
    cell: (r) => r.deviceName ?? c.deviceName(r.deviceId),
  });
  const time = <R>(key: string, get: (r: R) => string): Column<R> => ({
    key,
    label: col(key),
    cell: (r) => c.formatTime(get(r)),
  });
  const distance = <R extends { distance: number }>(): Column<R> => ({
    key: 'distance',
    label: `${col('distance')} (${du})`,
    cell: (r) => formatDistance(r.distance, units.distanceUnit, locale),
    value: (r) => round2(convertDistance(r.distance, units.distanceUnit)),
  });
  const speed = <R>(key: string, get: (r: R) => number): Column<R> => ({
    key,
    label: `${col(key)} (${su})`,
    cell: (r) => formatSpeed(get(r), units.speedUnit, locale),
    value: (r) => round2(convertSpeed(get(r), units.speedUnit)),
  });
  const duration = <R extends { duration: number }>(): Column<R> => ({
    key: 'duration',
    label: col('duration'),
    cell: (r) => formatDuration(r.duration),
  });
  const fuel = <R extends { spentFuel: number }>(): Column<R>[] => [
    {
      key: 'spentFuel',
      label: `${col('spentFuel')} (${vu})`,
      cell: (r) => formatVolume(r.spentFuel, units.volumeUnit, locale),
      value: (r) => round2(convertVolume(r.spentFuel, units.volumeUnit)),
    },
    {
      key: 'fuelCost',
      label: col('fuelCost'),
      cell: (r) => {
        const v = fuelCost(r.spentFuel, c.fuelPrice);
        return v === null ? '—' : formatCurrency(v, locale, c.currency);
      },
      value: (r) => fuelCost(r.spentFuel, c.fuelPrice) ?? '',
    },
  ];
  const l100 = c.litersPer100km ?? 0;
  const estimate = <R extends { distance: number }>(): Column<R>[] =>
    l100 > 0
      ? [
          {
            key: 'estimatedFuel',
            label: `${col('estimatedFuel')} (${vu})`,
            cell: (r) => formatVolume(estimatedFuel(r.distance, l100) ?? 0, units.volumeUnit, locale),
            value: (r) => round2(convertVolume(estimatedFuel(r.distance, l100) ?? 0, units.volumeUnit)),
          },
          ...(c.fuelPrice > 0
            ? [
                {
                  key: 'estimatedFuelCost',
                  label: col('estimatedFuelCost'),
                  cell: (r: R) =>
                    formatCurrency(
                      fuelCost(estimatedFuel(r.distance, l100) ?? 0, c.fuelPrice) ?? 0,
                      locale,
                      c.currency,
                    ),
                  value: (r: R) => fuelCost(estimatedFuel(r.distance, l100) ?? 0, c.fuelPrice) ?? '',
                },
              ]
            : []),
        ]
      : [];
  const hours = <R extends { engineHours: number }>(): Column<R> => ({
    key: 'engineHours',
    label: col('engineHours'),
    cell: (r) => formatEngineHours(r.engineHours, locale),
    value: (r) => round2(msToHours(r.engineHours)),
  });

  let cols: Column<never>[];
  switch (type) {
    case 'summary':
      cols = [
        device<ReportSummary>(),
        time<ReportSummary>('startTime', (r) => r.startTime),
        time<ReportSummary>('endTime', (r) => r.endTime),
        distance<ReportSummary>(),
        speed<ReportSummary>('averageSpeed', (r) => r.averageSpeed),
        speed<ReportSummary>('maxSpeed', (r) => r.maxSpeed),
        hours<ReportSummary>(),
        ...fuel<ReportSummary>(),
        ...estimate<ReportSummary>(),
      ];
      break;
    case 'trips':
      cols = [
        device<ReportTrip>(),
        time<ReportTrip>('startTime', (r) => r.startTime),
        {
          key: 'startAddress',
          label: col('startAddress'),
          cell: (r: ReportTrip) => r.startAddress || coords(r.startLat, r.startLon),
        },
        time<ReportTrip>('endTime', (r) => r.endTime),
        {
          key: 'endAddress',
          label: col('endAddress'),
          cell: (r: ReportTrip) => r.endAddress || coords(r.endLat, r.endLon),
        },
        distance<ReportTrip>(),
        duration<ReportTrip>(),
        speed<ReportTrip>('averageSpeed', (r) => r.averageSpeed),
        speed<ReportTrip>('maxSpeed', (r) => r.maxSpeed),
        ...fuel<ReportTrip>(),
        ...estimate<ReportTrip>(),
        { key: 'driver', label: col('driver'), cell: (r: ReportTrip) => r.driverName ?? '' },
      ];
      break;
    case 'stops':
      cols = [
        device<ReportStop>(),
        time<ReportStop>('startTime', (r) => r.startTime),
        time<ReportStop>('endTime', (r) => r.endTime),
        duration<ReportStop>(),
        {
          key: 'address',
          label: col('address'),
          cell: (r: ReportStop) => r.address || coords(r.latitude, r.longitude),
        },
        hours<ReportStop>(),
        ...fuel<ReportStop>(),
      ];
      break;
    case 'events':
      cols = [
        device<Event>(),
        time<Event>('eventTime', (r) => r.eventTime),
        { key: 'type', label: col('type'), cell: (r: Event) => eventTypeName(r.type, c.label) },
        {
          key: 'alarm',
          label: col('alarm'),
          cell: (r: Event) => (r.attributes?.alarm ? String(r.attributes.alarm) : ''),
        },
      ];
      break;
    case 'route':
      cols = [
        device<Position>(),
        time<Position>('fixTime', (r) => r.fixTime),
        {
          key: 'latitude',
          label: col('latitude'),
          cell: (r: Position) => r.latitude.toFixed(6),
          value: (r: Position) => r.latitude,
        },
        {
          key: 'longitude',
          label: col('longitude'),
          cell: (r: Position) => r.longitude.toFixed(6),
          value: (r: Position) => r.longitude,
        },
        speed<Position>('speed', (r) => r.speed),
        {
          key: 'course',
          label: col('course'),
          cell: (r: Position) => `${Math.round(r.course)}°`,
          value: (r: Position) => r.course,
        },
        { key: 'address', label: col('address'), cell: (r: Position) => r.address ?? '' },
      ];
      break;
  }
  return cols as unknown as Column<ReportRow>[];
}

/** The Excel value of a column (its number where it has one, else the shown text). */
export const excelValue = <R>(col: Column<R>, row: R) => (col.value ? col.value(row) : col.cell(row));

/** A row of the devices report (GET /api/reports/devices/xlsx): a device, its group's name and latest position. */
export interface DeviceReportRow {
  device: Pick<
    Device,
    'id' | 'name' | 'uniqueId' | 'status' | 'lastUpdate' | 'phone' | 'model' | 'contact' | 'category'
  >;
  groupName: string | null;
  position: Pick<Position, 'fixTime' | 'latitude' | 'longitude' | 'speed' | 'course' | 'address'> | null;
}

/** Translated text of a catalogue key when it exists, else the fallback. */
const named = (key: string, fallback: string, label: (key: MessageKey) => string) =>
  isMessageKey(key) ? label(key) : fallback;

/**
 * Columns of the devices report (Traccar's devices Excel): identity, group, status and last update, then the
 * latest position (time, coordinates, speed in the user's unit, address); empty cells for a device without one.
 */
export function deviceReportColumns(c: ColumnContext): Column<DeviceReportRow>[] {
  const col = (key: string) => named(`reportColumns.${key}`, key, c.label);
  const text = (
    key: string,
    get: (r: DeviceReportRow) => string | null | undefined,
  ): Column<DeviceReportRow> => ({
    key,
    label: col(key),
    cell: (r) => get(r) ?? '',
  });
  const su = UNIT_LABELS[c.units.speedUnit];
  return [
    text('device', (r) => r.device.name),
    text('uniqueId', (r) => r.device.uniqueId),
    text('group', (r) => r.groupName),
    text('phone', (r) => r.device.phone),
    text('model', (r) => r.device.model),
    text('contact', (r) => r.device.contact),
    text('category', (r) =>
      r.device.category ? named(`categories.${r.device.category}`, r.device.category, c.label) : '',
    ),
    text('status', (r) => named(`deviceStatusNames.${r.device.status}`, r.device.status, c.label)),
    text('lastUpdate', (r) => (r.device.lastUpdate ? c.formatTime(r.device.lastUpdate) : '')),
    text('positionTime', (r) => (r.position ? c.formatTime(r.position.fixTime) : '')),
    {
      key: 'latitude',
      label: col('latitude'),
      cell: (r) => (r.position ? r.position.latitude.toFixed(6) : ''),
      value: (r) => r.position?.latitude ?? '',
    },
    {
      key: 'longitude',
      label: col('longitude'),
      cell: (r) => (r.position ? r.position.longitude.toFixed(6) : ''),
      value: (r) => r.position?.longitude ?? '',
    },
    {
      key: 'speed',
      label: `${col('speed')} (${su})`,
      cell: (r) => (r.position ? formatSpeed(r.position.speed, c.units.speedUnit, c.locale) : ''),
      value: (r) => (r.position ? round2(convertSpeed(r.position.speed, c.units.speedUnit)) : ''),
    },
    text('address', (r) =>
      r.position ? r.position.address || coords(r.position.latitude, r.position.longitude) : '',
    ),
  ];
}
