// GET /api/devices takes its rows from memory (traccar/heldRows.ts, issue #30): the ids are read from the store (the
// access rules, the search, the order, the page), each row and its live state come from the live core, each row's
// text is written once per change of it. The answer is the store's, byte for byte, once the batches are stored;
// a change through the API shows in the next list; a device the cache does not know yet is read from the store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, createDevice, expectStatus, makeTestApp, type TestApp } from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { mapAnswer } from '../../src/traccar/listAnswer.ts';
import { deviceToJson, type Row } from '../../src/traccar/model.ts';
import { objectsByIds } from '../../src/db/repos/objects.ts';
import { inTransaction } from '../../src/db/repos/query.ts';
import { insert } from '../support/testSql.ts';
import { reportAt } from '../support/report.ts';

let t: TestApp;
const devices: Array<{ id: number; uniqueId: string }> = [];
const T0 = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;

async function report(uniqueId: string, s: number) {
  const r = await getLive(t.ctx).ingest(
    reportAt(uniqueId, T0, s, { latitude: -23.5, longitude: -46.6 + s / 1000 }),
  );
  if (!r.ok) throw new Error(r.message);
}

/** The list as the store answers it: every device row read and mapped (what GET /api/devices did before). */
async function storedList(excludeAttributes: boolean): Promise<string> {
  const listed = expectStatus<Array<{ id: number }>>(await api(t.app, t.admin, 'GET', '/api/devices'), 200);
  const rows = (await objectsByIds(
    t.ctx.store.sql,
    'devices',
    listed.map((d) => d.id),
  )) as Row[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return mapAnswer(
    listed.map((d) => byId.get(d.id)!),
    (r) => deviceToJson(r, excludeAttributes),
  );
}

beforeAll(async () => {
  t = await makeTestApp();
  for (let i = 0; i < 5; i++)
    devices.push(await createDevice(t, { name: `held ${i}`, attributes: { n: i } }));
});
afterAll(async () => {
  await t?.close();
});

describe('the device list from memory', () => {
  it('shows each reporting device online with its last update and latest position, as the store holds them', async () => {
    for (const [s, d] of devices.slice(0, 3).entries()) {
      await report(d.uniqueId, s);
      await report(d.uniqueId, s + 10);
    }
    const list = expectStatus<Array<Record<string, unknown>>>(
      await api(t.app, t.admin, 'GET', '/api/devices'),
      200,
    );
    const reporting = list.filter((d) => devices.slice(0, 3).some((x) => x.id === d.id));
    expect(reporting.map((d) => d.status)).toEqual(['online', 'online', 'online']);
    for (const d of reporting) {
      expect(d.positionId).toBeGreaterThan(0);
      expect(d.lastUpdate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/);
      // the single device's answer is read from the store
      expect(expectStatus(await api(t.app, t.admin, 'GET', `/api/devices/${String(d.id)}`), 200)).toEqual(d);
    }
    const silent = list.find((d) => d.id === devices[4].id)!;
    expect(silent).toMatchObject({ status: 'offline', positionId: 0, lastUpdate: null });
  });

  it('is the store’s answer byte for byte, with attributes and without', async () => {
    for (const excludeAttributes of [false, true]) {
      const res = await api(
        t.app,
        t.admin,
        'GET',
        `/api/devices?excludeAttributes=${String(excludeAttributes)}`,
      );
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(await storedList(excludeAttributes));
    }
  });

  it('shows a new report and a change through the API in the next list', async () => {
    const before = expectStatus<Array<{ id: number; positionId: number; lastUpdate: string }>>(
      await api(t.app, t.admin, 'GET', '/api/devices'),
      200,
    ).find((d) => d.id === devices[0].id)!;
    await report(devices[0].uniqueId, 30);
    const put = await api(t.app, t.admin, 'PUT', `/api/devices/${String(devices[1].id)}`, {
      ...expectStatus<Record<string, unknown>>(
        await api(t.app, t.admin, 'GET', `/api/devices/${String(devices[1].id)}`),
        200,
      ),
      name: 'held renamed',
    });
    expect(put.statusCode).toBe(200);
    const after = expectStatus<Array<{ id: number; name: string; positionId: number; lastUpdate: string }>>(
      await api(t.app, t.admin, 'GET', '/api/devices'),
      200,
    );
    const moved = after.find((d) => d.id === devices[0].id)!;
    expect(moved.positionId).toBeGreaterThan(before.positionId);
    expect(moved.lastUpdate >= before.lastUpdate).toBe(true);
    expect(after.find((d) => d.id === devices[1].id)!.name).toBe('held renamed');
    expect(JSON.stringify(after)).toBe(await storedList(false));
  });

  it('lists a device written to the store behind the live cache’s back (read from the store)', async () => {
    let id = 0;
    await inTransaction(t.ctx.store.sql, async (tx) => {
      id = await insert(tx, 'devices', {
        name: 'held behind',
        uniqueId: 'held-behind',
        attributes: '{"k":"v"}',
      });
    });
    const list = expectStatus<Array<Record<string, unknown>>>(
      await api(t.app, t.admin, 'GET', '/api/devices?all=true'),
      200,
    );
    expect(list.find((d) => d.id === id)).toMatchObject({
      name: 'held behind',
      uniqueId: 'held-behind',
      attributes: { k: 'v' },
      status: 'offline',
    });
  });
});

describe('the live core’s rows for the list', () => {
  it('gives the same object for a row that did not change, a new one with the live state after a report', async () => {
    const live = getLive(t.ctx);
    const ids = devices.map((d) => d.id);
    const first = await live.storedRows(ids);
    const again = await live.storedRows(ids);
    expect(again.every((row, i) => row === first[i])).toBe(true);
    await report(devices[2].uniqueId, 40);
    const after = await live.storedRows(ids);
    expect(after[2]).not.toBe(first[2]);
    expect(after[2]).toMatchObject({ status: 'online', name: 'held 2' });
    expect(Number(after[2]!.positionId)).toBeGreaterThan(Number(first[2]!.positionId));
    expect(after.filter((row, i) => i !== 2).every((row) => first.includes(row))).toBe(true);
  });
});
