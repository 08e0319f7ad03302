// GET /api/devices on PostgreSQL reads on the read pool only the ids it answers with (issue #30, session 39): the
// rows and their live state come from the live core's memory (traccar/heldRows.ts). Before, during an ingestion
// flood, a list of 1,000 devices read every row (session 26: in one statement, where the ids, then slices of 250 rows
// had been six reads), 3.4–3.9 ms of PostgreSQL's time, and mapped them on the main thread. The devices here are
// written behind the live cache's back: the first list reads those rows from the store, the next only their ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectStatus, makeTestApp, type TestApp } from '../helpers/app.ts';
import { TEST_DATABASE_URL } from '../helpers/store.ts';
import { readerOf } from '../../src/db/pool.ts';
import { getLive } from '../../src/live/ingest.ts';
import { LIST_SLICE, MAP_SLICE } from '../../src/traccar/listAnswer.ts';
import { inTransaction } from '../../src/db/repos/query.ts';
import { insert } from '../support/testSql.ts';

const COUNT = Math.max(2 * LIST_SLICE, MAP_SLICE) + 37;

let t: TestApp;
beforeAll(async () => {
  if (!TEST_DATABASE_URL)
    throw new Error('this test needs PostgreSQL: RASTRO_TEST_DATABASE_URL (npm test sets it)');
  t = await makeTestApp();
  // names in the reverse order of the ids, so the answer's order is the sort's, not the table's
  await inTransaction(t.ctx.store.sql, async (tx) => {
    for (let i = 0; i < COUNT; i++)
      await insert(tx, 'devices', {
        name: `reads ${String(COUNT - i).padStart(5, '0')}`,
        uniqueId: `reads-${i}`,
        attributes: '{"n":1}',
        status: i % 2 ? 'online' : null,
      });
  });
});
afterAll(async () => {
  await t?.close();
});

describe('the device list on PostgreSQL', () => {
  it(`${COUNT} devices: the ids read on the pool, the rows from memory, every one listed once, sorted`, async () => {
    const reader = readerOf(t.ctx.store.sql);
    const asked: string[] = [];
    const all = reader.all.bind(reader);
    reader.all = (text, values) => {
      asked.push(text);
      return all(text, values);
    };
    try {
      getLive(t.ctx).invalidate(); // the cache reads the rows written behind its back
      expectStatus(await api(t.app, t.admin, 'GET', '/api/devices?all=true'), 200);
      asked.length = 0;
      const list = expectStatus<Array<{ id: number; name: string; status: string; attributes: unknown }>>(
        await api(t.app, t.admin, 'GET', '/api/devices?all=true'),
        200,
      );
      const ours = list.filter((d) => d.name.startsWith('reads '));
      expect(ours).toHaveLength(COUNT);
      expect(new Set(list.map((d) => d.id)).size).toBe(list.length);
      const names = ours.map((d) => d.name);
      expect(names).toEqual([...names].sort());
      expect(ours[0]).toMatchObject({ name: 'reads 00001', attributes: { n: 1 } });
      expect(new Set(ours.map((d) => d.status))).toEqual(new Set(['online', 'offline']));
      // one statement names the devices, and it reads their ids only
      const devices = asked.filter((text) => /from "devices"/i.test(text));
      expect(devices).toHaveLength(1);
      expect(devices[0]).toMatch(/^select ("devices"\.)?"id" from "devices"/i);
    } finally {
      reader.all = all;
    }
  });

  it('excludeAttributes, keyword, limit and offset as before', async () => {
    const page = expectStatus<Array<{ name: string; attributes: unknown }>>(
      await api(
        t.app,
        t.admin,
        'GET',
        '/api/devices?all=true&keyword=READS&limit=2&offset=3&excludeAttributes=true',
      ),
      200,
    );
    expect(page).toMatchObject([
      { name: 'reads 00004', attributes: {} },
      { name: 'reads 00005', attributes: {} },
    ]);
  });
});
