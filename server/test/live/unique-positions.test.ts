// One position per device and fix time (issue #30): a tracker that sends a batch again (its answer was lost, or it
// was answered 503) is answered 200, and nothing is stored or raised a second time. Runs on SQLite and, with
// RASTRO_TEST_DATABASE_URL, on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDevice, expectStatus, makeTestApp, type TestApp } from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { count as countRows, first, type Table, type Where } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

// whole seconds, an hour ago
const T0 = Math.floor((Date.now() - 3_600_000) / 1000);

const postBatch = (items: Array<Record<string, unknown>>) =>
  t.app.inject({
    method: 'POST',
    url: '/',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(items),
  });

const count = async (table: Table, where: Where = {}) => await countRows(t.ctx.store.sql, table, where);

describe('a batch sent again', () => {
  it('is answered 200 and stored once; its events are raised once; the latest position stays', async () => {
    const d = await createDevice(t);
    const batch = [0, 10, 20, 30, 40].map((s, i) => ({
      id: d.uniqueId,
      lat: -23.5 + i / 1000,
      lon: -46.6,
      timestamp: T0 + s,
      ...(s === 20 ? { alarm: 'sos' } : {}),
    }));
    expect((await postBatch(batch)).statusCode).toBe(200);
    const latest = (await getLive(t.ctx).latestPositionAsync(d.id))!;
    const events = await count('events', { deviceId: d.id });
    expect(await count('events', { deviceId: d.id, type: 'alarm' })).toBe(1);

    // the whole batch again, then its middle part again, then one position sent twice in one request
    expect((await postBatch(batch)).statusCode).toBe(200);
    expect((await postBatch(batch.slice(1, 4))).statusCode).toBe(200);
    expect((await postBatch([batch[4], batch[4]])).statusCode).toBe(200);

    expect(await count('positions', { deviceId: d.id })).toBe(5);
    expect(await count('events', { deviceId: d.id })).toBe(events);
    expect(await getLive(t.ctx).latestPositionAsync(d.id)).toMatchObject({
      id: latest.id,
      fixTime: latest.fixTime,
    });
    const row = await first(t.ctx.store.sql, 'devices', { id: d.id }, { columns: ['positionId'] });
    expect(row).toEqual({ positionId: latest.id });
    const history = expectStatus<Array<{ fixTime: string }>>(
      await api(
        t.app,
        t.admin,
        'GET',
        `/api/positions?deviceId=${d.id}&from=${new Date((T0 - 1) * 1000).toISOString()}&to=${new Date(
          (T0 + 60) * 1000,
        ).toISOString()}`,
      ),
      200,
    );
    expect(history.map((p) => Date.parse(p.fixTime) / 1000)).toEqual([0, 10, 20, 30, 40].map((s) => T0 + s));
  });

  it('an older position sent again after newer ones is not stored twice either', async () => {
    const d = await createDevice(t);
    const at = (s: number) => `/?id=${d.uniqueId}&lat=1&lon=2&timestamp=${T0 + s}`;
    for (const s of [0, 5, 10])
      expect((await t.app.inject({ method: 'POST', url: at(s) })).statusCode).toBe(200);
    const again = await t.app.inject({ method: 'POST', url: at(5) });
    expect(again.statusCode).toBe(200);
    expect(await count('positions', { deviceId: d.id })).toBe(3);
  });

  it('a fix sent twice inside one batch is stored once and both are answered with it', async () => {
    // on PostgreSQL a batch's rows are held and written as one statement at its end (db/repos/ingestBatch.ts):
    // the resend's look-up inside the same batch must still see the first one
    const d = await createDevice(t);
    const p = {
      uniqueId: d.uniqueId,
      protocol: 'osmand',
      fixTime: new Date(T0 * 1000),
      latitude: 5,
      longitude: 6,
      attributes: { alarm: 'sos' },
    };
    const results = await getLive(t.ctx).ingestMany([
      p,
      { ...p, latitude: 7 },
      { ...p, fixTime: new Date((T0 + 10) * 1000), latitude: 8, attributes: {} },
      { ...p, latitude: 9 },
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    const ids = results.map((r) => (r.ok ? r.position.id : 0));
    expect(ids[1]).toBe(ids[0]);
    expect(ids[3]).toBe(ids[0]);
    expect(ids[2]).not.toBe(ids[0]);
    expect(results[3]).toMatchObject({ position: { latitude: 5 } });
    expect(await count('positions', { deviceId: d.id })).toBe(2);
    expect(await count('positions', { id: ids[0], latitude: 5 })).toBe(1);
    expect(await count('events', { deviceId: d.id, type: 'alarm' })).toBe(1);
    const row = await first(t.ctx.store.sql, 'devices', { id: d.id }, { columns: ['positionId'] });
    expect(row).toEqual({ positionId: ids[2] });
  });

  it('the live core answers a resend with the stored position (ingest API)', async () => {
    const d = await createDevice(t);
    const p = {
      uniqueId: d.uniqueId,
      protocol: 'osmand',
      fixTime: new Date(T0 * 1000),
      latitude: 5,
      longitude: 6,
    };
    const first = await getLive(t.ctx).ingest(p);
    const second = await getLive(t.ctx).ingest({ ...p, latitude: 7 });
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.position).toMatchObject({ id: first.position.id, latitude: 5 });
    expect(await count('positions', { deviceId: d.id })).toBe(1);
  });
});
