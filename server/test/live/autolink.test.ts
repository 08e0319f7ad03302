// Autolink (server/src/live/autolink.ts): unknown identifiers are remembered when they report; a user who may
// create devices links one in a step, the device gets the remembered report as its first position; refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage, type AutolinkStatus } from '@rastro/domain';
import { getLive } from '../../src/live/ingest.ts';
import { api, createUser, expectStatus, laterFixTime, makeTestApp, type TestApp } from '../helpers/index.ts';
import { count, first } from '../support/testSql.ts';

describe('autolink', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  const report = (uniqueId: string, latitude: number, longitude: number) =>
    getLive(t.ctx).ingest({ uniqueId, protocol: 'osmand', fixTime: laterFixTime(), latitude, longitude });
  const post = (cookie: string, body: unknown, lang = 'pt-BR') =>
    t.app.inject({
      method: 'POST',
      url: '/rastro/autolink',
      headers: { cookie, 'accept-language': lang, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });

  it('remembers an unknown tracker, then links it to the caller with its last report on the map', async () => {
    const imei = '861234567890123';
    expect((await report(imei, -23.5, -46.6)).ok).toBe(false);
    expect((await report(imei, -23.51, -46.61)).ok).toBe(false);
    const user = await createUser(t);
    const status = expectStatus<AutolinkStatus>(
      await api(t.app, user.cookie, 'GET', `/rastro/autolink?uniqueId=${imei}`),
      200,
    );
    expect(status).toMatchObject({
      uniqueId: imei,
      registered: false,
      seen: true,
      reports: 2,
      protocol: 'osmand',
    });

    const device = expectStatus<{ id: number; uniqueId: string; name: string }>(
      await post(user.cookie, { uniqueId: imei, name: 'Caminhão novo' }),
      200,
    );
    expect(device).toMatchObject({ uniqueId: imei, name: 'Caminhão novo' });
    const mine = expectStatus<Array<{ id: number }>>(
      await api(t.app, user.cookie, 'GET', '/api/devices'),
      200,
    );
    expect(mine.map((d) => d.id)).toContain(device.id);
    const positions = expectStatus<Array<{ latitude: number; longitude: number }>>(
      await api(t.app, user.cookie, 'GET', `/api/positions?deviceId=${device.id}`),
      200,
    );
    expect(positions[0]).toMatchObject({ latitude: -23.51, longitude: -46.61 });
    const after = expectStatus<AutolinkStatus>(
      await api(t.app, user.cookie, 'GET', `/rastro/autolink?uniqueId=${imei}`),
      200,
    );
    expect(after).toMatchObject({ registered: true, seen: false });
    // its next report is accepted now
    expect((await report(imei, -23.52, -46.62)).ok).toBe(true);

    const again = await post(user.cookie, { uniqueId: imei, name: 'Outro' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain(formatMessage('autolink.registered', 'pt-BR'));
  });

  it('a tracker never heard of can be linked too (it shows up when it reports)', async () => {
    const user = await createUser(t);
    const st = expectStatus<AutolinkStatus>(
      await api(t.app, user.cookie, 'GET', '/rastro/autolink?uniqueId=ABC-777'),
      200,
    );
    expect(st.seen).toBe(false);
    const d = expectStatus<{ id: number }>(
      await post(user.cookie, { uniqueId: 'ABC-777', name: 'Moto' }),
      200,
    );
    expect(d.id).toBeGreaterThan(0);
  });

  it('bad input is a translated 400; the device limit and read-only are Traccar’s refusals; nothing is created', async () => {
    const user = await createUser(t);
    const bad = await post(user.cookie, { uniqueId: 'a b', name: 'X' }, 'es');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain(formatMessage('autolink.identifierInvalid', 'es'));
    const noName = await post(user.cookie, { uniqueId: 'GOOD-1', name: '' }, 'en-US');
    expect(noName.statusCode).toBe(400);
    expect(noName.body).toContain(formatMessage('validation.deviceNameRequired', 'en-US'));
    expect((await api(t.app, user.cookie, 'GET', '/rastro/autolink?uniqueId=x')).statusCode).toBe(400);

    const limited = await createUser(t, { deviceLimit: 0 });
    expect((await report('LIMIT-1', 1, 1)).ok).toBe(false);
    const refused = await post(limited.cookie, { uniqueId: 'LIMIT-1', name: 'Sem cota' });
    expect(refused.statusCode).toBe(400);
    const ro = await createUser(t, { readonly: true });
    expect((await post(ro.cookie, { uniqueId: 'LIMIT-1', name: 'RO' })).statusCode).toBe(400);
    expect(await count(t.ctx.store.sql, 'devices', { uniqueId: 'LIMIT-1' })).toBe(0);
    expect(
      (await api(t.app, null, 'POST', '/rastro/autolink', { uniqueId: 'LIMIT-1', name: 'x' })).statusCode,
    ).toBe(401);
  });
});

describe('autolink through the OsmAnd protocol', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  it('an OsmAnd report of an unknown id is refused and remembered with its position', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'id=OSM-UNKNOWN-1&lat=-23.5&lon=-46.6',
    });
    expect(res.statusCode).toBe(400);
    // the report's write is posted without the main thread waiting (issue #30); the status waits for it
    const seen = await api(t.app, t.admin, 'GET', '/rastro/autolink?uniqueId=OSM-UNKNOWN-1');
    expect(seen.json()).toMatchObject({ seen: true, reports: 1, protocol: 'osmand' });
    const row = (await first(t.ctx.store.sql, 'unknown_devices', { uniqueId: 'OSM-UNKNOWN-1' })) as {
      latitude: number;
      protocol: string;
    };
    expect(row).toMatchObject({ latitude: -23.5, protocol: 'osmand' });
  });
});
