import { describe, expect, it } from 'vitest';
import {
  estimatedFuel,
  type ReportStop,
  type ReportSummary,
  type ReportTrip,
  type Units,
} from '@rastro/domain';
import { createI18n } from '../../i18n/index.ts';
import { columnsFor, excelValue, fuelCost, REPORT_TYPE, type ColumnContext } from './columns.ts';
import { reportFormSchema } from './ReportView.tsx';

const i18n = createI18n('en-US');
const ctx = (units: Partial<Units> = {}, fuelPrice = 0): ColumnContext => ({
  units: { speedUnit: 'kmh', distanceUnit: 'km', altitudeUnit: 'm', volumeUnit: 'ltr', ...units },
  locale: 'en-US',
  formatTime: (v) => new Date(v).toISOString(),
  fuelPrice,
  deviceName: (id) => `dev${id}`,
  label: (k) => i18n.t(`common:${k}`),
});

const base = {
  deviceId: 4,
  deviceName: 'Truck 4',
  distance: 12_500, // m
  averageSpeed: 27, // kn
  maxSpeed: 54, // kn
  spentFuel: 3.5, // l
  startOdometer: 0,
  endOdometer: 12_500,
  startTime: '2026-03-01T08:00:00.000Z',
  endTime: '2026-03-01T08:30:00.000Z',
};
const trip: ReportTrip = {
  ...base,
  startPositionId: 1,
  endPositionId: 9,
  startLat: -23.5,
  startLon: -46.6,
  endLat: -23.4,
  endLon: -46.5,
  startAddress: null,
  endAddress: 'Av. Brasil, 10',
  duration: 1_800_000,
  driverUniqueId: null,
  driverName: 'Ana',
};

const byKey = <R>(cols: ReturnType<typeof columnsFor>, row: R) =>
  Object.fromEntries(cols.map((c) => [c.key, c.cell(row as never)]));

describe('report columns', () => {
  it('maps each kind to its /api/reports type', () => {
    expect(REPORT_TYPE).toEqual({
      resume: 'summary',
      travels: 'trips',
      stops: 'stops',
      events: 'events',
      history: 'route',
    });
  });

  it('trips in km/h and km with fuel cost from fuelPrice', () => {
    const cols = columnsFor('travels', ctx({}, 6.2));
    const cells = byKey(cols, trip);
    expect(cells.device).toBe('Truck 4');
    expect(cells.distance).toBe('12.50 km');
    expect(cells.averageSpeed).toBe('50 km/h'); // 27 kn × 1.852 = 50.004
    expect(cells.maxSpeed).toBe('100 km/h'); // 54 kn = 100.008 km/h
    expect(cells.duration).toBe('30 min');
    expect(cells.startAddress).toBe('-23.50000, -46.60000');
    expect(cells.endAddress).toBe('Av. Brasil, 10');
    expect(cells.fuelCost).toBe('$21.70'); // 3.5 l × 6.20
    expect(cells.driver).toBe('Ana');
    const distance = cols.find((c) => c.key === 'distance')!;
    expect(distance.label).toBe('Distance (km)');
    expect(excelValue(distance, trip)).toBe(12.5);
    expect(
      excelValue(
        cols.find((c) => c.key === 'maxSpeed')!,
        trip,
      ),
    ).toBe(100.01);
  });

  it('summary in mph and miles, engine hours, no fuel price ⇒ no cost', () => {
    const summary: ReportSummary = { ...base, engineHours: 5_400_000, startHours: 0, endHours: 5_400_000 };
    const cells = byKey(columnsFor('resume', ctx({ speedUnit: 'mph', distanceUnit: 'mi' })), summary);
    expect(cells.distance).toBe('7.77 mi'); // 12.5 km × 0.621371
    expect(cells.maxSpeed).toBe('62 mph'); // 54 kn × 1.15078 = 62.14
    expect(cells.engineHours).toBe('1.5 h');
    expect(cells.fuelCost).toBe('—');
  });

  it('stops with coordinates when there is no address', () => {
    const stop: ReportStop = {
      ...base,
      positionId: 3,
      latitude: -23.55,
      longitude: -46.63,
      address: null,
      duration: 3_900_000,
      engineHours: 0,
    };
    const cells = byKey(columnsFor('stops', ctx()), stop);
    expect(cells.duration).toBe('1 h 05 min');
    expect(cells.address).toBe('-23.55000, -46.63000');
  });

  it('event types are translated, device names looked up', () => {
    const cells = byKey(columnsFor('events', ctx()), {
      id: 1,
      deviceId: 7,
      type: 'ignitionOn',
      eventTime: '2026-03-01T08:00:00.000Z',
      positionId: 0,
      geofenceId: 0,
      maintenanceId: 0,
      attributes: {},
    });
    expect(cells).toMatchObject({ device: 'dev7', type: 'Ignition on', alarm: '' });
  });

  it('litres per 100 km (server setting litersx100km) adds the estimated fuel and its cost to trips and summary', () => {
    const withL100 = { ...ctx({}, 6.2), litersPer100km: 12 };
    const cells = byKey(columnsFor('travels', withL100), trip);
    expect(cells.estimatedFuel).toBe('1.5 l'); // 12.5 km × 12 l / 100 km
    expect(cells.estimatedFuelCost).toBe('$9.30'); // 1.5 l × 6.20
    const summary: ReportSummary = { ...base, engineHours: 0, startHours: 0, endHours: 0 };
    const gallons = byKey(
      columnsFor('resume', { ...ctx({ volumeUnit: 'usGallon' }), litersPer100km: 12 }),
      summary,
    );
    expect(gallons.estimatedFuel).toMatch(/^0\.4 /); // 1.5 l = 0.396 US gal
    expect(gallons.estimatedFuelCost).toBeUndefined(); // no fuel price
    // not set ⇒ no estimate columns; stops never have one (no distance)
    expect(byKey(columnsFor('travels', ctx()), trip).estimatedFuel).toBeUndefined();
    expect(columnsFor('stops', withL100).some((c) => c.key === 'estimatedFuel')).toBe(false);
    expect(estimatedFuel(100_000, 8)).toBe(8);
    expect(estimatedFuel(100_000, 0)).toBeNull();
  });

  it('fuel cost rounds to cents and needs a price', () => {
    expect(fuelCost(3.333, 5.99)).toBe(19.96);
    expect(fuelCost(10, 0)).toBeNull();
  });
});

describe('report form (zod)', () => {
  const from = '2026-03-01T00:00:00.000Z';
  const to = '2026-03-01T23:59:59.999Z';
  it('needs a device or group and from <= to', () => {
    expect(reportFormSchema.safeParse({ deviceIds: [1], groupIds: [], from, to }).success).toBe(true);
    expect(reportFormSchema.safeParse({ deviceIds: [], groupIds: [2], from, to }).success).toBe(true);
    const none = reportFormSchema.safeParse({ deviceIds: [], groupIds: [], from, to });
    expect(none.success || none.error.issues[0].message).toBe('form.pickDevice');
    const reversed = reportFormSchema.safeParse({ deviceIds: [1], groupIds: [], from: to, to: from });
    expect(reversed.success || reversed.error.issues[0].message).toBe('period.invalid');
    expect(reportFormSchema.safeParse({ deviceIds: [0], groupIds: [], from, to }).success).toBe(false);
  });
});
