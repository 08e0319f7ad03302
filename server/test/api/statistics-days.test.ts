// Issue #27: GET /api/statistics has one row per day of the server's time zone, stamped at that day's local
// midnight as an instant (a UTC−3 browser then shows the right day), and starts at the first day the store has
// data: no zero rows for days before the database existed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDevice, expectStatus, makeTestApp, type TestApp } from '../helpers/index.ts';
import { first, insert, update } from '../support/testSql.ts';

type Row = { captureTime: string; messagesStored: number; activeDevices: number };

describe('statistics days', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
    const sql = t.ctx.store.sql;
    const { attributes } = (await first(sql, 'server', { id: 1 }, { columns: ['attributes'] })) as {
      attributes: string;
    };
    await update(
      sql,
      'server',
      {
        attributes: JSON.stringify({ ...(JSON.parse(attributes) as object), timezone: 'America/Sao_Paulo' }),
      },
      { id: 1 },
    );
  });
  afterAll(async () => t.close());

  it('start at the first local day with data, each stamped at its local midnight', async () => {
    const d = await createDevice(t);
    // 2024-06-10 02:30Z is 9 June 23:30 in São Paulo (UTC−3): the store's first data
    for (const time of ['2024-06-10T02:30:00.000Z', '2024-06-11T12:00:00.000Z'])
      await insert(t.ctx.store.sql, 'positions', {
        deviceId: d.id,
        protocol: 'osmand',
        serverTime: time,
        deviceTime: time,
        fixTime: time,
        latitude: 0,
        longitude: 0,
      });
    const rows = expectStatus<Row[]>(
      await api(t.app, t.admin, 'GET', '/api/statistics?from=2024-06-01T03:00:00Z&to=2024-06-12T03:00:00Z'),
      200,
    );
    expect(rows.map((r) => [r.captureTime, r.messagesStored])).toEqual([
      ['2024-06-09T03:00:00.000+00:00', 1],
      ['2024-06-10T03:00:00.000+00:00', 0],
      ['2024-06-11T03:00:00.000+00:00', 1],
      ['2024-06-12T03:00:00.000+00:00', 0],
    ]);
    // a period wholly before the first data has no rows
    const before = expectStatus<Row[]>(
      await api(t.app, t.admin, 'GET', '/api/statistics?from=2024-05-01T03:00:00Z&to=2024-06-08T03:00:00Z'),
      200,
    );
    expect(before).toEqual([]);
  });
});
