// Geofence locks (SPEC §3 Geofence: lock on enter, lock on exit): crossing such a fence sends engineStop to the
// device (queued here, as a test device has no live channel), and only for the direction asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDevice, createObject, link, makeTestApp, type TestApp } from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { select } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

const OUTSIDE = { latitude: -23.6, longitude: -46.7 };
const INSIDE = { latitude: -23.5, longitude: -46.6 };

const report = async (uniqueId: string, at: { latitude: number; longitude: number }, second: number) => {
  const r = await getLive(t.ctx).ingest({
    uniqueId,
    protocol: 'osmand',
    fixTime: new Date(Date.now() - 60_000 + second * 1000),
    ...at,
  });
  if (!r.ok) throw new Error(r.message);
  return r.commands.map((c) => c.type); // what the device takes with this report's answer
};

const queued = async (deviceId: number) =>
  (await select(
    t.ctx.store.sql,
    'queued_commands',
    { deviceId },
    { columns: ['type', 'attributes'], orderBy: ['id'] },
  )) as Array<{ type: string; attributes: string }>;

const settle = () => new Promise((r) => setTimeout(r, 50));

async function fencedDevice(attributes: Record<string, unknown>) {
  const d = await createDevice(t);
  const g = await createObject(t, 'geofences', {
    name: `Fence ${d.uniqueId}`,
    area: `CIRCLE (${INSIDE.latitude} ${INSIDE.longitude}, 500)`,
    attributes,
  });
  await link(t, { deviceId: d.id, geofenceId: g.id });
  return { d, g };
}

describe('geofence locks', () => {
  it('lock on enter: entering sends engineStop with the geofence and reason; leaving does not', async () => {
    const { d, g } = await fencedDevice({ 'rastro.lockOnEnter': true });
    await report(d.uniqueId, OUTSIDE, 0);
    await settle();
    expect(await queued(d.id)).toEqual([]);
    await report(d.uniqueId, INSIDE, 1);
    await settle();
    const q = await queued(d.id);
    expect(q.map((c) => c.type)).toEqual(['engineStop']);
    expect(JSON.parse(q[0].attributes)).toMatchObject({ geofenceId: g.id, reason: 'geofenceEnter' });
    // the next report carries the queued lock to the device; leaving queues nothing new
    expect(await report(d.uniqueId, OUTSIDE, 2)).toEqual(['engineStop']);
    await settle();
    expect(await queued(d.id)).toEqual([]);
  });

  it('lock on exit: leaving sends engineStop; entering does not', async () => {
    const { d } = await fencedDevice({ 'rastro.lockOnExit': 'true' });
    await report(d.uniqueId, OUTSIDE, 0);
    await report(d.uniqueId, INSIDE, 1);
    await settle();
    expect(await queued(d.id)).toEqual([]);
    await report(d.uniqueId, OUTSIDE, 2);
    await settle();
    expect((await queued(d.id)).map((c) => c.type)).toEqual(['engineStop']);
  });

  it('a fence without locks (or with them off) sends nothing', async () => {
    const { d } = await fencedDevice({ 'rastro.lockOnEnter': false });
    await report(d.uniqueId, OUTSIDE, 0);
    await report(d.uniqueId, INSIDE, 1);
    await report(d.uniqueId, OUTSIDE, 2);
    await settle();
    expect(await queued(d.id)).toEqual([]);
  });
});
