// An ingestion batch reads what it needs before its loop (issue #30, live/ingestSql.ts readAhead): the stored
// positions its reports may repeat (first reports, fixes not after the latest) in one statement, instead of one
// waited read per report, which on PostgreSQL also sent the rows held so far. A resend is still found, in the store
// or earlier in the same batch, and never stored twice. Runs on SQLite, and on PostgreSQL with
// RASTRO_TEST_DATABASE_URL.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createDevice, makeTestApp, type TestApp } from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { reportAt } from '../support/report.ts';
import type { IngestStatements } from '../../src/db/repos/ingest.ts';
import { count } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

const T0 = Date.parse('2024-06-01T12:00:00Z');
const pos = (uniqueId: string, s: number, lat = 1) => reportAt(uniqueId, T0, s, { latitude: lat });

/** The live core's one-report read of a stored position (what the batch used to run per report). */
function positionAtReads() {
  const sql = (getLive(t.ctx) as unknown as { sql: IngestStatements }).sql;
  return vi.spyOn(sql.positionAt, 'get');
}

async function storedCount(deviceId: number): Promise<number> {
  return await count(t.ctx.store.sql, 'positions', { deviceId });
}

describe('an ingestion batch reads ahead', () => {
  it('first reports of many devices in one batch: no read per report; a resend in the batch found', async () => {
    const devices = [];
    for (let i = 0; i < 6; i++) devices.push(await createDevice(t));
    const live = getLive(t.ctx);
    const reads = positionAtReads();
    try {
      // one batch (queued in one turn): each device's first report, and device 0's report sent twice
      const results = await Promise.all([
        ...devices.map((d) => live.ingest(pos(d.uniqueId, 0))),
        live.ingest(pos(devices[0].uniqueId, 0, 2)),
      ]);
      expect(results.every((r) => r.ok)).toBe(true);
      expect(reads).not.toHaveBeenCalled(); // before: one read per first report
      const [first, resend] = [results[0], results[6]];
      if (!first.ok || !resend.ok) throw new Error('not stored');
      expect(resend.position.id).toBe(first.position.id); // the resend answered with the stored position
      expect(resend.position.latitude).toBe(1);
      for (const d of devices) expect(await storedCount(d.id)).toBe(1);
    } finally {
      reads.mockRestore();
    }
  });

  it('a resend of a stored fix older than the latest is found in the store, not stored twice', async () => {
    const d = await createDevice(t);
    const live = getLive(t.ctx);
    const a = await live.ingest(pos(d.uniqueId, 10));
    await live.ingest(pos(d.uniqueId, 20));
    const reads = positionAtReads();
    try {
      const again = await live.ingest(pos(d.uniqueId, 10, 5));
      expect(reads).not.toHaveBeenCalled();
      if (!a.ok || !again.ok) throw new Error('not stored');
      expect(again.position.id).toBe(a.position.id);
      expect(await storedCount(d.id)).toBe(2);
    } finally {
      reads.mockRestore();
    }
  });
});
