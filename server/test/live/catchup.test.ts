// POST /{ns}/positions/catchup (issue #30, no gap in the live trail): what a page missed while its socket was
// reconnecting, per device after the newest position it shows, bounded, in fix time order, only its own devices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage } from '@rastro/domain';
import { createDevice, createUser, link, makeTestApp, type TestApp } from '../helpers/index.ts';
import { getLive } from '../../src/live/ingest.ts';
import { reportAt } from '../support/report.ts';
import { CATCHUP_PER_DEVICE } from '../../src/live/catchup.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

const T0 = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
const at = (s: number) => new Date(T0 + s * 1000).toISOString();

async function send(uniqueId: string, s: number) {
  const r = await getLive(t.ctx).ingest(reportAt(uniqueId, T0, s, { longitude: s / 1000 }));
  if (!r.ok) throw new Error(r.message);
}

const catchup = (cookie: string, body: unknown, lang = 'pt-BR') =>
  t.app.inject({
    method: 'POST',
    url: `/${t.ctx.config.ns}/positions/catchup`,
    headers: { cookie, 'content-type': 'application/json', 'accept-language': lang },
    payload: JSON.stringify(body),
  });

describe('POST /{ns}/positions/catchup', () => {
  it('answers each device’s positions after the one shown, in fix time order, only the caller’s devices', async () => {
    const u = await createUser(t);
    const mine = await createDevice(t);
    const quiet = await createDevice(t);
    const other = await createDevice(t);
    await link(t, { userId: u.id, deviceId: mine.id });
    await link(t, { userId: u.id, deviceId: quiet.id });
    for (const s of [0, 10, 20, 30, 40]) await send(mine.uniqueId, s);
    await send(quiet.uniqueId, 5);
    for (const s of [0, 10, 20]) await send(other.uniqueId, s);
    const res = await catchup(u.cookie, {
      after: { [mine.id]: at(10), [quiet.id]: at(5), [other.id]: at(0) },
    });
    expect(res.statusCode).toBe(200);
    const got = res.json() as Array<{ deviceId: number; fixTime: string }>;
    expect(got.map((p) => [p.deviceId, Date.parse(p.fixTime)])).toEqual(
      [20, 30, 40].map((s) => [mine.id, T0 + s * 1000]),
    );
    // the API's time form is taken too; nothing newer: nothing
    const none = await catchup(u.cookie, { after: { [mine.id]: at(40).replace('Z', '+00:00') } });
    expect(none.json()).toEqual([]);
  });

  it('keeps the newest positions of a device when it missed more than the bound', async () => {
    const d = await createDevice(t);
    await send(d.uniqueId, 0);
    const extra = CATCHUP_PER_DEVICE + 5;
    for (let s = 1; s <= extra; s++) await send(d.uniqueId, s);
    const got = (await catchup(t.admin, { after: { [d.id]: at(0) } })).json() as Array<{ fixTime: string }>;
    expect(got).toHaveLength(CATCHUP_PER_DEVICE);
    expect(Date.parse(got[0].fixTime)).toBe(T0 + (extra - CATCHUP_PER_DEVICE + 1) * 1000);
    expect(Date.parse(got[got.length - 1].fixTime)).toBe(T0 + extra * 1000);
  });

  it('bad input is a translated 400; no session is 401', async () => {
    for (const body of [{}, { after: { x: at(0) } }, { after: { 1: 'yesterday' } }, { after: [] }]) {
      const res = await catchup(t.admin, body, 'es');
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(formatMessage('positions.catchupBody', 'es'));
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: `/${t.ctx.config.ns}/positions/catchup`,
      headers: { 'content-type': 'application/json' },
      payload: '{"after":{}}',
    });
    expect(anonymous.statusCode).toBe(401);
  });
});
