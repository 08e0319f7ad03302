// The repositories of reports, scheduled reports, fleet insights and the demo seed (issue #30) on the store the
// tests run on: SQLite by default, PostgreSQL with RASTRO_TEST_DATABASE_URL, as repos.test.ts does for the
// Traccar layer's. The reports' reads are prepared once (preparedQuery) and run with fresh values each time, on the
// read pool (allAsync/getAsync) as the reports run them; the rows are written on the pool too.
import { describe, expect, it } from 'vitest';
import { allDriverNames } from '../../src/db/repos/catalog.ts';
import { addActivityRows, insertLiveEventAsync, type ActivityValues } from '../../src/db/repos/ingest.ts';
import { activityTotals, distanceByHour, prepareInsightEventCounts } from '../../src/db/repos/insights.ts';
import { addLink } from '../../src/db/repos/links.ts';
import { insertObjectAsync, updateObjectAsync } from '../../src/db/repos/objects.ts';
import { serverSettingsAsync, updateServerSettingsAsync } from '../../src/db/repos/server.ts';
import { insertAsync, preparedQuery, qb } from '../../src/db/repos/query.ts';
import { positionsByIdsInTimeOrder, prepareReportReads } from '../../src/db/repos/reports.ts';
import {
  calendarData,
  calendarReports,
  mailRecipients,
  reportLinkOwners,
  setReportAttributes,
} from '../../src/db/repos/scheduledReports.ts';
import {
  anyDemoUser,
  centreMapIfUnset,
  driverIdByCode,
  insertDevices,
  simulatedDeviceIds,
  simulatedDevicesWithPlace,
} from '../../src/db/repos/simulator.ts';
import { insertUserRowAsync } from '../../src/db/repos/users.ts';
import { ACTIVITY_SUMS } from '@rastro/domain';
import { repoStore } from '../helpers/repoStore.ts';
import { positionRow } from '../support/positionRow.ts';

const store = repoStore('repos-reports');

const at = (m: number) => `2026-02-01T00:${String(m).padStart(2, '0')}:00.000Z`;

/** Stores a position of `deviceId` at minute `m` (on the pool, as every write on both stores); its id. */
function putPosition(deviceId: number, m: number, speed: number): Promise<number> {
  const db = store.sql;
  return insertAsync(
    db,
    qb(db)
      .insertInto('positions')
      .values(
        positionRow(deviceId, at(m), {
          latitude: m,
          longitude: -m,
          speed,
          attributes: JSON.stringify({ m }),
        }),
      ),
  );
}

async function putEvent(deviceId: number, m: number, type: string, positionId: number): Promise<void> {
  await insertLiveEventAsync(store.sql, {
    type,
    eventTime: at(m),
    deviceId,
    positionId,
    geofenceId: 0,
    maintenanceId: 0,
    attributes: '{}',
  });
}

describe('reports repositories', () => {
  it("reports' reads: [from, to) per device, edges, top speed, limits, events and motion with their positions", async () => {
    const db = store.sql;
    const reads = prepareReportReads(db);
    // stored out of time order: the reads answer in time order
    const p5 = await putPosition(700, 5, 30);
    const p1 = await putPosition(700, 1, 10);
    const p3 = await putPosition(700, 3, 50);
    await putPosition(700, 9, 99); // at `to`: outside
    await putPosition(701, 2, 70); // another device
    await putEvent(700, 1, 'deviceMoving', p1);
    await putEvent(700, 5, 'deviceStopped', p5);
    await putEvent(700, 3, 'deviceOverspeed', p3);
    await putEvent(701, 2, 'deviceMoving', 0);
    const span = { deviceId: 700, from: at(0), to: at(9) };
    const minutes = (rows: Array<{ attributes: string }>) =>
      rows.map((r) => (JSON.parse(r.attributes) as { m: number }).m);

    // on the read pool (what the reports run; PostgreSQL has no synchronous read since session 38)
    expect(minutes(await reads.positions.allAsync({ ...span, limit: 10 }))).toEqual([1, 3, 5]);
    expect(minutes(await reads.positions.allAsync({ ...span, limit: 2 }))).toEqual([1, 3]);
    expect((await reads.first.getAsync(span))?.id).toBe(p1);
    expect((await reads.last.getAsync(span))?.id).toBe(p5);
    expect((await reads.maxSpeed.getAsync(span))?.v).toBe(50);
    expect((await reads.maxSpeed.getAsync({ ...span, deviceId: 702 }))?.v ?? null).toBeNull();
    expect(await reads.first.getAsync({ ...span, from: at(6) })).toBeUndefined();
    // the same prepared statement, other values: another device, another period
    expect((await reads.first.getAsync({ deviceId: 701, from: at(0), to: at(9) }))?.speed).toBe(70);
    expect(minutes(await reads.positions.allAsync({ ...span, from: at(3), limit: 10 }))).toEqual([3, 5]);
    expect(await reads.coordinates.allAsync({ ...span, limit: 2 })).toEqual([
      { longitude: -1, latitude: 1 },
      { longitude: -3, latitude: 3 },
    ]);
    expect((await reads.events.allAsync(span)).map((e) => e.type)).toEqual([
      'deviceMoving',
      'deviceOverspeed',
      'deviceStopped',
    ]);
    const motion = await reads.motion.allAsync(span);
    expect(motion.map((r) => [r.eventType, r.id, r.speed])).toEqual([
      ['deviceMoving', p1, 10],
      ['deviceStopped', p5, 30],
    ]);
    // an event pointing at no stored position is left out of the motion read
    expect(await reads.motion.allAsync({ ...span, deviceId: 701 })).toEqual([]);
    // SQLite's synchronous runs of the same statements (its ingestion's path) answer the same rows
    if (db.dialect === 'sqlite') {
      expect(reads.positions.all({ ...span, limit: 10 })).toEqual(
        await reads.positions.allAsync({ ...span, limit: 10 }),
      );
      expect(reads.last.get(span)).toEqual(await reads.last.getAsync(span));
      expect(reads.motion.all(span)).toEqual(motion);
    }
    expect((await positionsByIdsInTimeOrder(db, [p5, p3, p1])).map((p) => p.id)).toEqual([p1, p3, p5]);
    expect(await positionsByIdsInTimeOrder(db, [])).toEqual([]);
  });

  it('a prepared query binds each value where its placeholder is, and refuses a name the query does not use', async () => {
    const db = store.sql;
    const byName = preparedQuery<{ a: number; b: string }, { id: number }>(db, ['a', 'b'], (p) =>
      qb(db)
        .selectFrom('positions')
        .select('id')
        .where('fixTime', '>=', p.b)
        .where('deviceId', '=', p.a)
        .where('valid', '=', 1)
        .orderBy('id')
        .limit(1),
    );
    expect((await byName.getAsync({ a: 701, b: at(0) }))?.id).toBeGreaterThan(0);
    expect(await byName.getAsync({ a: 701, b: at(3) })).toBeUndefined();
    expect(await byName.allAsync({ a: 700, b: at(4) })).toHaveLength(1);
    expect(() =>
      preparedQuery<{ a: number; unused: number }, { id: number }>(db, ['a', 'unused'], (p) =>
        qb(db).selectFrom('positions').select('id').where('deviceId', '=', p.a),
      ),
    ).toThrow(/unused/);
  });

  it('scheduled reports: those with a calendar, its data, the period kept, links by kind, mail recipients', async () => {
    const db = store.sql;
    const calendarId = await insertObjectAsync(db, 'calendars', {
      name: 'c',
      data: 'BEGIN:VCALENDAR',
      attributes: '{}',
    });
    const withCalendar = await insertObjectAsync(db, 'reports', {
      type: 'trips',
      description: 'weekly',
      calendarId,
      attributes: '{}',
    });
    await insertObjectAsync(db, 'reports', {
      type: 'stops',
      description: null,
      calendarId: 0,
      attributes: '{}',
    });
    expect((await calendarReports(db)).map((r) => [r.id, r.type, r.calendarId])).toEqual([
      [withCalendar, 'trips', calendarId],
    ]);
    expect(await calendarData(db, calendarId)).toBe('BEGIN:VCALENDAR');
    expect(await calendarData(db, 999_999)).toBeUndefined();
    await setReportAttributes(db, withCalendar, '{"lastPeriodEnd":"x"}');
    expect((await calendarReports(db))[0]?.attributes).toBe('{"lastPeriodEnd":"x"}');

    const mail = (email: string, disabled = 0) =>
      insertUserRowAsync(db, { name: email, email, disabled, attributes: '{}' });
    const ok = await mail('ok@example.com');
    const off = await mail('off@example.com', 1);
    const noAt = await mail('no-address');
    const second = await mail('second@example.com');
    for (const [ownerType, ownerId] of [
      ['user', second],
      ['device', 9],
      ['user', ok],
      ['group', 4],
      ['device', 3],
      ['user', off],
      ['user', noAt],
    ] as const)
      await addLink(db, { ownerType, ownerId, propertyType: 'report', propertyId: withCalendar });
    await addLink(db, { ownerType: 'user', ownerId: ok, propertyType: 'device', propertyId: withCalendar });
    expect((await reportLinkOwners(db, withCalendar)).map((l) => `${l.ownerType}:${l.ownerId}`)).toEqual([
      'device:3',
      'device:9',
      'group:4',
      ...[ok, second, off, noAt].sort((a, b) => a - b).map((id) => `user:${id}`),
    ]);
    expect((await mailRecipients(db, [second, off, noAt, ok])).map((u) => u.email)).toEqual([
      'ok@example.com',
      'second@example.com',
    ]);
    expect(await mailRecipients(db, [])).toEqual([]);
  });

  it("drivers' names by code", async () => {
    const db = store.sql;
    await insertObjectAsync(db, 'drivers', { name: 'Ana', uniqueId: 'D-1', attributes: '{}' });
    await insertObjectAsync(db, 'drivers', { name: 'Bia', uniqueId: 'D-2', attributes: '{}' });
    expect((await allDriverNames(db)).sort((a, b) => a.uniqueId.localeCompare(b.uniqueId))).toEqual([
      { uniqueId: 'D-1', name: 'Ana' },
      { uniqueId: 'D-2', name: 'Bia' },
    ]);
  });

  it('insights: activity summed per device, driver (with a code) and hour over whole hours, night driving, event counts', async () => {
    const db = store.sql;
    const hours: ActivityValues[] = [];
    const add = (deviceId: number, hour: number, driver: string, distance: number, drivingMs: number) =>
      hours.push({
        ...Object.fromEntries(ACTIVITY_SUMS.map((c) => [c, 0])),
        deviceId,
        hour,
        driver,
        distance,
        drivingMs,
        harshBraking: 1,
        maxSpeed: 10,
      } as ActivityValues);
    add(800, 100, 'D-1', 1000, 60_000);
    add(800, 101, 'D-1', 500, 30_000);
    add(800, 101, '', 250, 10_000);
    add(801, 101, 'D-2', 2000, 120_000);
    add(801, 102, 'D-2', 4000, 240_000);
    add(802, 101, 'D-1', 9999, 1); // a device not asked for
    add(800, 103, 'D-1', 7777, 1); // after the span
    await addActivityRows(db, hours);
    const byKey = <T extends { key: string | number }>(rows: T[]) =>
      [...rows].sort((a, b) => String(a.key).localeCompare(String(b.key)));
    const devices = byKey(await activityTotals(db, 'device', [800, 801], 100, 102, [101])).map((r) => [
      Number(r.key),
      Number(r.distance),
      Number(r.drivingMs),
      Number(r.nightMs),
      Number(r.harshBraking),
    ]);
    expect(devices).toEqual([
      [800, 1750, 100_000, 40_000, 3],
      [801, 6000, 360_000, 120_000, 2],
    ]);
    const drivers = byKey(await activityTotals(db, 'driver', [800, 801], 100, 102, [])).map((r) => [
      r.key,
      Number(r.distance),
      Number(r.nightMs),
    ]);
    expect(drivers).toEqual([
      ['D-1', 1500, 0],
      ['D-2', 6000, 0],
    ]);
    expect(await activityTotals(db, 'device', [], 100, 102, [101])).toEqual([]);
    const byHour = (await distanceByHour(db, [800, 801], 101, 102))
      .map((r) => [Number(r.hour), Number(r.distance)])
      .sort((a, b) => a[0]! - b[0]!);
    expect(byHour).toEqual([
      [101, 2750],
      [102, 4000],
    ]);

    await putEvent(810, 1, 'deviceStopped', 0);
    await putEvent(810, 2, 'deviceStopped', 0);
    await putEvent(810, 3, 'deviceOverspeed', 0);
    await putEvent(810, 4, 'deviceMoving', 0);
    await putEvent(810, 9, 'deviceStopped', 0); // at `to`: outside
    await putEvent(811, 2, 'deviceStopped', 0);
    const counts = prepareInsightEventCounts(db);
    const of = async (deviceId: number, from: string, to: string) =>
      Object.fromEntries((await counts.allAsync({ deviceId, from, to })).map((r) => [r.type, Number(r.n)]));
    expect(await of(810, at(0), at(9))).toEqual({ deviceStopped: 2, deviceOverspeed: 1 });
    expect(await of(810, at(2), at(9))).toEqual({ deviceStopped: 1, deviceOverspeed: 1 });
    expect(await of(811, at(0), at(9))).toEqual({ deviceStopped: 1 });
  });

  it("demo seed: demo users by domain, simulated devices with their place, drivers by code, the map's centre once", async () => {
    const db = store.sql;
    expect(await anyDemoUser(db)).toBe(false);
    await insertUserRowAsync(db, { name: 'x', email: 'someone@rastro.demo.example', attributes: '{}' });
    expect(await anyDemoUser(db)).toBe(false);
    await insertUserRowAsync(db, { name: 'Demo', email: 'Gerente@Rastro.Demo', attributes: '{}' });
    expect(await anyDemoUser(db)).toBe(true);

    const device = (uniqueId: string) => ({
      name: uniqueId,
      uniqueId,
      groupId: 0,
      phone: null,
      model: 'M',
      category: 'car',
      attributes: '{}',
    });
    // 501 devices: two statements of the insert (500 rows each at most), every id returned by its unique id
    const many = Array.from({ length: 501 }, (_, i) => device(`rastro-${String(i + 1).padStart(4, '0')}`));
    const ids = await insertDevices(db, many);
    expect(ids.size).toBe(501);
    const a = ids.get('rastro-0001')!;
    const b = ids.get('rastro-0002')!;
    expect(b).toBeGreaterThan(a);
    expect(ids.get('rastro-0501')).toBeGreaterThan(b);
    await insertObjectAsync(db, 'devices', { name: 'other', uniqueId: 'other-1', attributes: '{}' });
    const listed = await simulatedDeviceIds(db);
    expect(listed).toHaveLength(501);
    expect(new Map(listed.map((d) => [d.uniqueId, d.id]))).toEqual(ids);
    const placed = await putPosition(a, 7, 0);
    await updateObjectAsync(db, 'devices', a, { positionId: placed });
    const places = (await simulatedDevicesWithPlace(db)).sort((x, y) => x.uniqueId.localeCompare(y.uniqueId));
    expect(places.slice(0, 2).map((p) => [p.uniqueId, p.latitude, p.longitude, p.attributes])).toEqual([
      ['rastro-0001', 7, -7, '{}'],
      ['rastro-0002', null, null, '{}'],
    ]);

    expect(await driverIdByCode(db, 'D-1')).toBeGreaterThan(0);
    expect(await driverIdByCode(db, 'D-404')).toBeUndefined();

    await updateServerSettingsAsync(db, { latitude: 0, longitude: 0, zoom: 0 });
    await centreMapIfUnset(db, -23.5, -46.6, 12);
    expect(await serverSettingsAsync(db)).toMatchObject({ latitude: -23.5, longitude: -46.6, zoom: 12 });
    await centreMapIfUnset(db, 1, 2, 3);
    expect(await serverSettingsAsync(db)).toMatchObject({ latitude: -23.5, longitude: -46.6, zoom: 12 });
  });
});
