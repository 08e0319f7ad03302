// The monitoring center's queue (issue #32): states open → acknowledged → resolved with who and when, notes,
// assignment, folding, filters and order, the refusals as each role (operator, customer, read-only operator, another
// tenant's operator), translated texts, the audit of every step and the alarms report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatMessage, permissionStringFromBits, type Alarm, type AlarmReport } from '@rastro/domain';
import {
  api,
  createDevice,
  createUser,
  expectStatus,
  link,
  makeTestApp,
  type CreatedUser,
  type TestApp,
} from '../helpers/index.ts';
import { alarmDetector } from '../../src/ext/alarms.ts';
import { first, select } from '../support/testSql.ts';

let t: TestApp;
const OPERATOR_BITS = { 'rastro.advancedPerms': permissionStringFromBits([112, 113]) };
let operator: CreatedUser;
let customer: CreatedUser;
let readonlyOperator: CreatedUser;
let otherOperator: CreatedUser;
let device: { id: number; uniqueId: string };
let step = 0;

beforeAll(async () => {
  t = await makeTestApp();
  device = await createDevice(t);
  operator = await createUser(t, { name: 'Ana Operadora', attributes: OPERATOR_BITS });
  customer = await createUser(t, { name: 'Cliente' });
  readonlyOperator = await createUser(t, { readonly: true, attributes: OPERATOR_BITS });
  // another tenant: a manager with the bits, not linked to the device
  otherOperator = await createUser(t, { userLimit: 5, attributes: OPERATOR_BITS });
  for (const u of [operator, customer, readonlyOperator])
    await link(t, { userId: u.id, deviceId: device.id });
});
afterAll(async () => {
  await t.close();
});

/** One OsmAnd report of the test device (each a few seconds after the last). */
async function report(uniqueId: string, params: Record<string, string> = {}) {
  step++;
  const q = new URLSearchParams({
    id: uniqueId,
    lat: '-23.55',
    lon: '-46.63',
    timestamp: String(Math.floor(Date.now() / 1000) - 3600 + step * 5),
    ...params,
  });
  expect((await t.app.inject({ method: 'POST', url: `/?${q.toString()}` })).statusCode).toBe(200);
  await alarmDetector(t.ctx)!.settled(); // the detection runs after the position's answer, on the pool
}

/** A fresh SOS on `uniqueId` (after a report without it, so it is a new value). */
async function sos(uniqueId = device.uniqueId): Promise<Alarm> {
  await report(uniqueId);
  await report(uniqueId, { alarm: 'sos' });
  const list = expectStatus<Alarm[]>(await api(t.app, t.admin, 'GET', '/rastro/alarms?type=sos'), 200);
  return list.find((a) => a.deviceId !== 0 && a.state !== 'resolved' && a.type === 'sos')!;
}

const post = (cookie: string, url: string, body?: unknown, lang?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: {
      cookie,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(lang ? { 'accept-language': lang } : {}),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });

const actions = async (alarmId: number) =>
  (
    (await select(
      t.ctx.store.sql,
      'actions',
      { actionType: 'alarm', objectId: alarmId },
      { columns: ['userId', 'attributes'], orderBy: ['id'] },
    )) as Array<{ userId: number; attributes: string }>
  ).map(
    (a) =>
      ({ by: a.userId, ...(JSON.parse(a.attributes) as Record<string, unknown>) }) as Record<string, unknown>,
  );

const resolveAll = async () => {
  const open = expectStatus<Alarm[]>(await api(t.app, t.admin, 'GET', '/rastro/alarms'), 200);
  for (const a of open) await post(t.admin, `/rastro/alarms/${a.id}/resolve`, { outcome: 'other' });
};

describe('the queue', () => {
  it('open → acknowledged → resolved, with who and when, notes, the audit of each step', async () => {
    await resolveAll();
    const alarm = await sos();
    expect(alarm.state).toBe('open');
    const acked = expectStatus<Alarm>(
      await post(operator.cookie, `/rastro/alarms/${alarm.id}/ack`, { note: 'Calling the customer' }),
      200,
    );
    expect(acked).toMatchObject({
      state: 'acknowledged',
      ackUserId: operator.id,
      ackUserName: 'Ana Operadora',
      assignedUserId: operator.id,
    });
    expect(acked.notes.map((n) => [n.userName, n.text])).toEqual([['Ana Operadora', 'Calling the customer']]);
    expectStatus(
      await post(operator.cookie, `/rastro/alarms/${alarm.id}/note`, { text: 'Police on the way' }),
      200,
    );
    const resolved = expectStatus<Alarm>(
      await post(operator.cookie, `/rastro/alarms/${alarm.id}/resolve`, {
        outcome: 'recovered',
        note: 'Found',
      }),
      200,
    );
    expect(resolved).toMatchObject({ state: 'resolved', outcome: 'recovered', resolveUserId: operator.id });
    expect(resolved.notes.map((n) => n.text)).toEqual(['Calling the customer', 'Police on the way', 'Found']);
    expect(Date.parse(resolved.resolveTime!)).toBeGreaterThanOrEqual(Date.parse(resolved.ackTime!));
    expect(await actions(alarm.id)).toEqual([
      { by: operator.id, step: 'ack', deviceId: device.id, note: 'Calling the customer' },
      { by: operator.id, step: 'note', deviceId: device.id, note: 'Police on the way' },
      { by: operator.id, step: 'resolve', deviceId: device.id, outcome: 'recovered', note: 'Found' },
    ]);
    // handled alarms leave the default list, stay with all=true and state=resolved
    const open = expectStatus<Alarm[]>(await api(t.app, t.admin, 'GET', '/rastro/alarms'), 200);
    expect(open.map((a) => a.id)).not.toContain(alarm.id);
    const all = expectStatus<Alarm[]>(await api(t.app, t.admin, 'GET', '/rastro/alarms?all=true'), 200);
    expect(all.map((a) => a.id)).toContain(alarm.id);
    const byState = expectStatus<Alarm[]>(
      await api(t.app, t.admin, 'GET', '/rastro/alarms?state=resolved'),
      200,
    );
    expect(byState.every((a) => a.state === 'resolved')).toBe(true);
  });

  it('an ack needs no body; a repeat folds into the acknowledged alarm; a new one after resolving', async () => {
    await resolveAll();
    const first = await sos();
    expectStatus(await post(operator.cookie, `/rastro/alarms/${first.id}/ack`), 200);
    const again = await sos();
    expect(again.id).toBe(first.id);
    expect(again.count).toBe(2);
    expect(again.state).toBe('acknowledged');
    expectStatus(
      await post(operator.cookie, `/rastro/alarms/${first.id}/resolve`, { outcome: 'falseAlarm' }),
      200,
    );
    const next = await sos();
    expect(next.id).not.toBe(first.id);
    expect(next.count).toBe(1);
  });

  it('refusals of bad states: 409 in the caller language', async () => {
    await resolveAll();
    const alarm = await sos();
    expectStatus(await post(operator.cookie, `/rastro/alarms/${alarm.id}/ack`, {}), 200);
    const twice = await post(operator.cookie, `/rastro/alarms/${alarm.id}/ack`, {}, 'es');
    expect(twice.statusCode).toBe(409);
    expect(twice.body).toContain(
      formatMessage('alarms.badState', 'es', { state: 'En atención', step: 'atendida' }),
    );
    expectStatus(
      await post(operator.cookie, `/rastro/alarms/${alarm.id}/resolve`, { outcome: 'other' }),
      200,
    );
    const again = await post(operator.cookie, `/rastro/alarms/${alarm.id}/resolve`, { outcome: 'other' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('Este alarme está Resolvido');
    expect(
      (await post(operator.cookie, `/rastro/alarms/${alarm.id}/assign`, { userId: operator.id })).statusCode,
    ).toBe(409);
  });

  it('bad input: translated 400s, never a 500', async () => {
    const alarm = await sos();
    const noOutcome = await post(
      operator.cookie,
      `/rastro/alarms/${alarm.id}/resolve`,
      { outcome: 'maybe' },
      'en-US',
    );
    expect(noOutcome.statusCode).toBe(400);
    expect(noOutcome.body).toContain(formatMessage('alarms.outcomeRequired', 'en-US'));
    const emptyNote = await post(operator.cookie, `/rastro/alarms/${alarm.id}/note`, { text: '  ' });
    expect(emptyNote.statusCode).toBe(400);
    expect(emptyNote.body).toContain(formatMessage('alarms.noteRequired', 'pt-BR'));
    const list = await t.app.inject({
      method: 'GET',
      url: '/rastro/alarms?state=burning',
      headers: { cookie: operator.cookie, 'accept-language': 'es' },
    });
    expect(list.statusCode).toBe(400);
    expect(list.body).toContain(formatMessage('alarms.badFilter', 'es'));
    expect((await post(operator.cookie, '/rastro/alarms/abc/ack', {})).statusCode).toBe(400);
    expect((await post(operator.cookie, `/rastro/alarms/${alarm.id}/ack`, [1])).statusCode).toBe(400);
    const missing = await post(operator.cookie, '/rastro/alarms/999999/ack', {});
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain(formatMessage('alarms.notFound', 'pt-BR'));
  });

  it('assign: to an operator who sees the device, else a translated 400', async () => {
    const alarm = await sos();
    const ok = expectStatus<Alarm>(
      await post(t.admin, `/rastro/alarms/${alarm.id}/assign`, { userId: operator.id }),
      200,
    );
    expect(ok.assignedUserId).toBe(operator.id);
    for (const userId of [customer.id, otherOperator.id, 999999]) {
      const res = await post(t.admin, `/rastro/alarms/${alarm.id}/assign`, { userId });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(formatMessage('alarms.badAssignee', 'pt-BR'));
    }
    const admin = (await first(t.ctx.store.sql, 'users', { email: 'admin' }, { columns: ['id'] })) as {
      id: number;
    };
    expect((await actions(alarm.id)).filter((a) => a.step === 'assign')).toEqual([
      { by: admin.id, step: 'assign', deviceId: device.id, userId: operator.id },
    ]);
  });

  it('order: severity first, then age', async () => {
    await resolveAll();
    const other = await createDevice(t);
    await report(other.uniqueId, { speed: '10' });
    await report(other.uniqueId, { alarm: 'jamming' });
    await sos();
    await report(other.uniqueId, { alarm: 'powerCut' });
    const list = expectStatus<Alarm[]>(await api(t.app, t.admin, 'GET', '/rastro/alarms'), 200);
    expect(list.map((a) => a.type)).toEqual(['sos', 'powerCut', 'deviceAlarm']);
    const filtered = expectStatus<Alarm[]>(
      await api(t.app, t.admin, 'GET', `/rastro/alarms?deviceId=${other.id}&type=powerCut`),
      200,
    );
    expect(filtered.map((a) => a.type)).toEqual(['powerCut']);
  });
});

describe('roles', () => {
  it('a customer reads the alarms of its own devices and cannot act (403, translated)', async () => {
    const alarm = await sos();
    const list = expectStatus<Alarm[]>(await api(t.app, customer.cookie, 'GET', '/rastro/alarms'), 200);
    expect(list.map((a) => a.id)).toContain(alarm.id);
    expectStatus(await api(t.app, customer.cookie, 'GET', `/rastro/alarms/${alarm.id}`), 200);
    for (const [path, body] of [
      ['ack', {}],
      ['note', { text: 'x' }],
      ['assign', { userId: customer.id }],
      ['resolve', { outcome: 'other' }],
    ] as const) {
      const res = await post(customer.cookie, `/rastro/alarms/${alarm.id}/${path}`, body, 'es');
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain(formatMessage('alarms.notOperator', 'es'));
    }
    expect(
      (
        await api(
          t.app,
          customer.cookie,
          'GET',
          '/rastro/reports/alarms?from=2026-01-01T00:00:00Z&to=2030-01-01T00:00:00Z',
        )
      ).statusCode,
    ).toBe(403);
    expect(
      expectStatus<Alarm>(await api(t.app, t.admin, 'GET', `/rastro/alarms/${alarm.id}`), 200).state,
    ).toBe('open');
  });

  it('a read-only operator cannot act', async () => {
    const alarm = await sos();
    const res = await post(readonlyOperator.cookie, `/rastro/alarms/${alarm.id}/ack`, {});
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain(formatMessage('alarms.readonly', 'pt-BR'));
  });

  it("another tenant's operator neither sees nor touches the alarm (404)", async () => {
    const alarm = await sos();
    const list = expectStatus<Alarm[]>(
      await api(t.app, otherOperator.cookie, 'GET', '/rastro/alarms?all=true'),
      200,
    );
    expect(list).toEqual([]);
    expect((await api(t.app, otherOperator.cookie, 'GET', `/rastro/alarms/${alarm.id}`)).statusCode).toBe(
      404,
    );
    expect((await post(otherOperator.cookie, `/rastro/alarms/${alarm.id}/ack`, {})).statusCode).toBe(404);
    expect(
      expectStatus<Alarm>(await api(t.app, t.admin, 'GET', `/rastro/alarms/${alarm.id}`), 200).state,
    ).toBe('open');
  });

  it('an operator who manages no users gets the call contacts; a customer and another tenant do not', async () => {
    const owner = await createUser(t, { name: 'Dona do carro', phone: ' +55 11 98888-7777 ' });
    await link(t, { userId: owner.id, deviceId: device.id });
    const alarm = await sos();
    // the operator is a plain user with the monitoring bits: /api/users refuses it (CONTRACT: not a manager)
    expect(
      (await api(t.app, operator.cookie, 'GET', `/api/users?deviceId=${device.id}`)).statusCode,
    ).toBeGreaterThanOrEqual(400);
    const contacts = expectStatus<Array<{ name: string; phone: string }>>(
      await api(t.app, operator.cookie, 'GET', `/rastro/alarms/${alarm.id}/contacts`),
      200,
    );
    expect(contacts).toEqual([{ name: 'Dona do carro', phone: '+55 11 98888-7777' }]);
    const refusedRes = await t.app.inject({
      method: 'GET',
      url: `/rastro/alarms/${alarm.id}/contacts`,
      headers: { cookie: customer.cookie, 'accept-language': 'es' },
    });
    expect(refusedRes.statusCode).toBe(403);
    expect(refusedRes.body).toContain(formatMessage('alarms.notOperator', 'es'));
    expect(
      (await api(t.app, otherOperator.cookie, 'GET', `/rastro/alarms/${alarm.id}/contacts`)).statusCode,
    ).toBe(404);
    expect((await api(t.app, operator.cookie, 'GET', '/rastro/alarms/abc/contacts')).statusCode).toBe(400);
  });

  it('signed out: 401', async () => {
    expect((await api(t.app, null, 'GET', '/rastro/alarms')).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/rastro/alarms/1/ack' })).statusCode).toBe(401);
  });
});

describe('the alarms report', () => {
  it('counts per type, time to acknowledge and resolve, per operator; Excel', async () => {
    await resolveAll();
    const alarm = await sos();
    expectStatus(await post(operator.cookie, `/rastro/alarms/${alarm.id}/ack`, {}), 200);
    expectStatus(
      await post(operator.cookie, `/rastro/alarms/${alarm.id}/resolve`, { outcome: 'policeCalled' }),
      200,
    );
    const range = `from=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`;
    const report = expectStatus<AlarmReport>(
      await api(t.app, operator.cookie, 'GET', `/rastro/reports/alarms?${range}`),
      200,
    );
    expect(report.byType.find((r) => r.type === 'sos')!.count).toBeGreaterThanOrEqual(1);
    const mine = report.byOperator.find((o) => o.userId === operator.id)!;
    expect(mine.name).toBe('Ana Operadora');
    expect(mine.resolved).toBeGreaterThanOrEqual(1);
    expect(mine.ackMedian).not.toBeNull();
    const sheet = await t.app.inject({
      method: 'GET',
      url: `/rastro/reports/alarms?${range}`,
      headers: {
        cookie: operator.cookie,
        accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    });
    expect(sheet.statusCode).toBe(200);
    expect(sheet.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const bad = await api(t.app, operator.cookie, 'GET', '/rastro/reports/alarms?from=yesterday');
    expect(bad.statusCode).toBe(400);
  });
});
