// Long lists are answered in slices (server/src/traccar/listAnswer.ts): complete, in the list's order, with the
// event loop free between slices.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api, expectStatus, makeTestApp, type TestApp } from '../helpers/index.ts';
import {
  LIST_SLICE,
  listAnswer,
  MAP_SLICE,
  mapAnswer,
  SQL_LIST_SLICE,
} from '../../src/traccar/listAnswer.ts';
import { COLUMNS, DEVICE_JSON_SQL, deviceToJson, type Row } from '../../src/traccar/model.ts';
import { rowJsonSql } from '../../src/traccar/rowJsonSql.ts';
import { readerOf } from '../../src/db/pool.ts';
import { inTransaction } from '../../src/db/repos/query.ts';
import { insert, remove, select } from '../support/testSql.ts';

const COUNT = 2 * Math.max(LIST_SLICE, SQL_LIST_SLICE) + 345;

describe('list answers in slices', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
    // names in the reverse order of the ids, so the answer's order is the sort's, not the table's
    await inTransaction(t.ctx.store.sql, async (tx) => {
      for (let i = 0; i < COUNT; i++)
        await insert(tx, 'devices', {
          name: `dev ${String(COUNT - i).padStart(5, '0')}`,
          uniqueId: `slice-${i}`,
          attributes: '{"n":1}',
        });
    });
  });
  afterAll(async () => t.close());

  /**
   * A removal started between slices (the tests' writes are asynchronous, session 36): on PostgreSQL a pooled read
   * sent once it started waits for it, so the slices read after it do not see the row, as when the removal was
   * synchronous; on SQLite the removal runs at once (nothing waits on its connection).
   */
  function removedBetween() {
    let removal: Promise<number> | undefined;
    const reader = readerOf(t.ctx.store.sql);
    const read = reader.all.bind(reader);
    const gate = vi.spyOn(reader, 'all').mockImplementation(async (text, values) => {
      await removal;
      return read(text, values);
    });
    return {
      start: (fn: () => Promise<number>) => {
        removal = fn();
        removal.catch(() => undefined); // answered where done() awaits it
      },
      done: async () => {
        gate.mockRestore();
        return (await removal) ?? 0;
      },
    };
  }

  it(`GET /api/devices?all=true with ${COUNT} devices: every one, once, sorted by name, attributes parsed`, async () => {
    const res = await api(t.app, t.admin, 'GET', '/api/devices?all=true');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const list = expectStatus<{ id: number; name: string; attributes: unknown }[]>(res, 200);
    const ours = list.filter((d) => d.name.startsWith('dev '));
    expect(ours).toHaveLength(COUNT);
    expect(new Set(list.map((d) => d.id)).size).toBe(list.length);
    const names = ours.map((d) => d.name);
    expect(names).toEqual([...names].sort());
    expect(ours[0]).toMatchObject({ name: 'dev 00001', attributes: { n: 1 } });
  });

  it('limit and offset still page the sorted list', async () => {
    const page = expectStatus<{ name: string }[]>(
      await api(t.app, t.admin, 'GET', `/api/devices?all=true&keyword=dev&limit=3&offset=${LIST_SLICE}`),
      200,
    );
    const name = (n: number) => `dev ${String(n).padStart(5, '0')}`;
    expect(page.map((d) => d.name)).toEqual([
      name(LIST_SLICE + 1),
      name(LIST_SLICE + 2),
      name(LIST_SLICE + 3),
    ]);
  });

  it('other work runs between slices; a row deleted meanwhile is left out, the rest stay in order', async () => {
    const ids = (
      (await select(t.ctx.store.sql, 'devices', {}, { columns: ['id'], orderBy: ['id'] })) as { id: number }[]
    ).slice(0, COUNT);
    const last = ids[ids.length - 1].id;
    let between = false;
    const seenBetween: boolean[] = [];
    const removal = removedBetween();
    const json = await listAnswer(t.ctx, 'devices', ids, (row) => {
      // other work, due as soon as the first slice is being mapped (on PostgreSQL the slices are read on the pool)
      if (!seenBetween.length)
        setImmediate(() => {
          between = true;
          removal.start(() => remove(t.ctx.store.sql, 'devices', { id: last }));
        });
      seenBetween.push(between);
      return { id: row.id as number };
    });
    expect(await removal.done()).toBe(1);
    expect(seenBetween[0]).toBe(false); // the first slice is mapped before the other work
    expect(seenBetween[seenBetween.length - 1]).toBe(true); // the last one after the other work ran
    expect((JSON.parse(json) as { id: number }[]).map((r) => r.id)).toEqual(
      ids.slice(0, -1).map((r) => r.id),
    );
    expect(await listAnswer(t.ctx, 'devices', [], () => ({}))).toBe('[]');
  });

  it('rows already read (PostgreSQL lists): mapped in order, other work between slices, none between for one slice', async () => {
    const rows = Array.from({ length: 2 * MAP_SLICE + 5 }, (_, i) => ({ id: i + 1, n: i }));
    let between = false;
    const seenBetween: boolean[] = [];
    const json = await mapAnswer(rows, (row) => {
      if (!seenBetween.length) setImmediate(() => (between = true));
      seenBetween.push(between);
      return { id: row.id, n: row.n };
    });
    expect(JSON.parse(json)).toEqual(rows);
    expect(seenBetween.slice(0, MAP_SLICE).every((b) => !b)).toBe(true); // a slice is mapped in one turn
    expect(seenBetween[seenBetween.length - 1]).toBe(true); // the last slice after the other work ran
    expect(await mapAnswer([], () => ({}))).toBe('[]');
  });

  it('JSON made by the query (SQLite; JS on PostgreSQL): the same answer, in slices with other work between', async () => {
    const ids = (
      (await select(t.ctx.store.sql, 'devices', {}, { columns: ['id'], orderBy: ['id desc'] })) as {
        id: number;
      }[]
    ).slice(0, COUNT - 1);
    const byJs = await listAnswer(t.ctx, 'devices', ids, (row) => deviceToJson(row as Row));
    const jsonSql = rowJsonSql(COLUMNS.devices, false, DEVICE_JSON_SQL);
    expect(
      JSON.parse(await listAnswer(t.ctx, 'devices', ids, (row) => deviceToJson(row as Row), jsonSql)),
    ).toEqual(JSON.parse(byJs));
    const last = ids[ids.length - 1].id;
    const removal = removedBetween();
    setImmediate(() => removal.start(() => remove(t.ctx.store.sql, 'devices', { id: last })));
    const answer = await listAnswer(t.ctx, 'devices', ids, (row) => deviceToJson(row as Row), jsonSql);
    expect(await removal.done()).toBe(1);
    expect((JSON.parse(answer) as { id: number }[]).map((r) => r.id)).toEqual(
      ids.slice(0, -1).map((r) => r.id),
    );
  });
});
