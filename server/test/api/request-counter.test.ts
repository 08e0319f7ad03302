// The statistics' API request counter (traccar/requestCounter.ts, issue #30): requests are counted in memory and
// written once a second, not one waited write each (during an ingestion flood on PostgreSQL each such write queued
// behind the batches); the statistics still count every request. Runs on SQLite and on PostgreSQL.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { statisticsRows } from '../../src/traccar/audit.ts';
import { requestCounter } from '../../src/traccar/requestCounter.ts';
import { api, makeTestApp, type TestApp } from '../helpers/index.ts';
import { one } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  vi.useRealTimers();
  await t.close();
});

/** Every request counted in the table (all hours). */
const stored = async () =>
  Number(
    (
      await one(t.ctx.store.sql, (q) =>
        q.selectFrom('request_stats').select((e) => e.fn.sum<number>('requests').as('n')),
      )
    )?.n ?? 0,
  );
/** The statistics of today (they write what was counted first). */
const statistics = () => {
  const midnight = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`);
  return statisticsRows(t.ctx, midnight, midnight, midnight + 86_400_000);
};

describe('API requests counted for the statistics', () => {
  it('are written together, not one write per request, and each is counted', async () => {
    await api(t.app, t.admin, 'GET', '/api/server');
    await statistics(); // what was counted so far is written
    // the timer's write once with real timers: on PostgreSQL it opens the API's write client (db/pool.ts), whose
    // connection would otherwise be made under the fake timers below and never complete
    await api(t.app, t.admin, 'GET', '/api/server');
    await requestCounter(t.ctx).flush();
    const before = await stored();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      for (let i = 0; i < 20; i++)
        expect((await api(t.app, t.admin, 'GET', '/api/server')).statusCode).toBe(200);
      expect(await stored()).toBe(before); // nothing written per request
      vi.advanceTimersByTime(1000); // the second's write (sent without the main thread waiting, both stores)
      await requestCounter(t.ctx).settled();
      expect(await stored()).toBe(before + 20);
    } finally {
      vi.useRealTimers();
    }
    for (let i = 0; i < 3; i++) await api(t.app, t.admin, 'GET', '/api/server');
    expect((await statistics())[0]?.requests).toBeGreaterThanOrEqual(23); // the statistics write what was counted first
    expect(await stored()).toBe(before + 23);
  });
});
