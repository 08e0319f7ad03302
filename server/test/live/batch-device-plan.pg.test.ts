// A pooled batch's device states find their rows through the primary key on PostgreSQL, whatever the fleet's size
// (issue #30, session 45; db/repos/ingestBatch.ts BATCH_SQL.devices). PostgreSQL guesses 100 rows from
// json_populate_recordset, so an UPDATE joined on it alone hashed the batch's rows against a scan of the whole
// devices table at every batch: 1.9 ms of PostgreSQL's time a batch at 10,000 devices, where looking the ids up in
// the primary key takes 0.4 ms (measured with pgbench, bench/RESULTS.md "Ingestion per store", session 45).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readerOf } from '../../src/db/pool.ts';
import { batchSql } from '../../src/db/repos/ingestBatch.ts';
import { getLive } from '../../src/live/ingest.ts';
import { reportAt } from '../support/report.ts';
import { createDevice, makeTestApp, type TestApp } from '../helpers/app.ts';
import { TEST_DATABASE_URL } from '../helpers/store.ts';
import { select } from '../support/testSql.ts';

/** A large fleet: the size at which the table scan was measured. */
const FLEET = 10_000;

let t: TestApp;
beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  t = await makeTestApp();
  const reader = readerOf(t.ctx.store.sql);
  await reader.all(
    `INSERT INTO devices ("name", "uniqueId", "attributes", "status")
      SELECT 'fleet ' || g, 'fleet-' || g, '{}', 'offline' FROM generate_series(1, ${FLEET}) AS g`,
    [],
  );
  await reader.all('ANALYZE devices', []);
  getLive(t.ctx).invalidate();
});
afterAll(async () => {
  await t?.close();
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

it(`a batch's device states: looked up in the primary key among ${FLEET.toLocaleString('en')} devices, no table scan`, async () => {
  const reader = readerOf(t.ctx.store.sql);
  const some = Array.from({ length: 16 }, (_, i) => `fleet-${1 + i * 600}`);
  const ids = await select<{ id: number }>(
    t.ctx.store.sql,
    'devices',
    { uniqueId: some },
    { columns: ['id'] },
  );
  expect(ids).toHaveLength(16);
  const rows = ids.map(({ id }) => ({
    id: Number(id),
    status: 'online',
    lastUpdate: '2026-12-02T10:00:00.000Z',
    positionId: null,
  }));
  const [answer] = await reader.all(`EXPLAIN (FORMAT JSON) ${batchSql(['devices'])}`, [JSON.stringify(rows)]);
  const plan = (Object.values(answer!)[0] as Array<{ Plan: PlanNode }>)[0]!.Plan;
  const all = nodes(plan);
  const onDevices = all.filter((n) => n['Relation Name'] === 'devices');
  expect(onDevices.map((n) => n['Node Type'])).not.toContain('Seq Scan');
  // an index scan, or a bitmap heap scan over a bitmap index scan (whose node names the index only)
  const byKey = all.filter((n) => /Index/.test(n['Node Type']) && n['Index Name'] === 'devices_pkey');
  expect(byKey).not.toHaveLength(0);
});

it('the batch still stores each device state, and never an older one over a newer', async () => {
  const live = getLive(t.ctx);
  const a = await createDevice(t);
  const b = await createDevice(t);
  const T0 = Date.parse('2026-12-02T10:00:00Z');
  const pos = (uniqueId: string, s: number) =>
    reportAt(uniqueId, T0, s, { longitude: 1 + s / 10_000, speed: 0 });
  const first = live.ingestMany([pos(a.uniqueId, 0), pos(b.uniqueId, 0)]);
  await live.settle();
  const stored = await first;
  expect(stored.every((r) => r.ok)).toBe(true);
  const states = await select<{ id: number; positionId: number; status: string }>(
    t.ctx.store.sql,
    'devices',
    { id: [a.id, b.id] },
    { columns: ['id', 'positionId', 'status'], orderBy: ['id'] },
  );
  expect(states.map((d) => [Number(d.id), Number(d.positionId), d.status])).toEqual(
    stored.map((r, i) => [[a.id, b.id][i], r.ok ? r.position.id : 0, 'online']),
  );

  // a state older than the stored one (another process wrote the device meanwhile) is not written over it
  const reader = readerOf(t.ctx.store.sql);
  const older = [{ id: a.id, status: 'offline', lastUpdate: '2000-01-01T00:00:00.000Z', positionId: 1 }];
  await reader.all(batchSql(['devices']), [JSON.stringify(older)]);
  const [kept] = await select<{ status: string; positionId: number }>(
    t.ctx.store.sql,
    'devices',
    { id: a.id },
    { columns: ['status', 'positionId'] },
  );
  expect([kept!.status, Number(kept!.positionId)]).toEqual([
    'online',
    stored[0]!.ok ? stored[0]!.position.id : 0,
  ]);
});
