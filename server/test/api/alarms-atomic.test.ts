// The alarms' writes are all or nothing (issue #30, session 33; docs/decisions/41, "Session 33 (H30q)"): a batch's
// detected alarms are stored in one transaction (ext/alarmsDetect.ts on inTransaction), and an operator's step — the
// alarm's state, its note and the audit action — commits together. On both stores: a trigger made by the test
// refuses one statement half way, nothing of the batch or of the step is stored; without the trigger the same work
// goes through whole.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alarm, Event } from '@rastro/domain';
import { alarmDetector } from '../../src/ext/alarms.ts';
import { api, createDevice, expectStatus, makeTestApp, type TestApp } from '../helpers/app.ts';
import { storeEnv, TEST_DATABASE_URL } from '../helpers/store.ts';
import { count } from '../support/testSql.ts';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t?.close();
});

const REFUSED = 'refused by the test';

/** Runs `fn` while a trigger refuses the INSERTs into `table` whose `column` is `value`, on the test's store. */
async function whileRefused(
  table: string,
  column: string,
  value: number,
  fn: () => Promise<void>,
): Promise<void> {
  const name = `h30q_refuse_${table}`;
  if (!TEST_DATABASE_URL) {
    const db = t.ctx.store.sql;
    db.exec(
      `CREATE TRIGGER ${name} BEFORE INSERT ON ${table} WHEN NEW."${column}" = ${value} ` +
        `BEGIN SELECT RAISE(ABORT, '${REFUSED}'); END`,
    );
    try {
      await fn();
    } finally {
      db.exec(`DROP TRIGGER ${name}`);
    }
    return;
  }
  const client = postgres((await storeEnv(t.dir)).DATABASE_URL!, { max: 1, onnotice: () => undefined });
  try {
    await client.unsafe(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ` +
        `IF NEW."${column}" = ${value} THEN RAISE EXCEPTION '${REFUSED}'; END IF; RETURN NEW; END $$`,
    );
    await client.unsafe(
      `CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`,
    );
    try {
      await fn();
    } finally {
      await client.unsafe(`DROP TRIGGER ${name} ON ${table}`);
      await client.unsafe(`DROP FUNCTION ${name}()`);
    }
  } finally {
    await client.end({ timeout: 1 });
  }
}

/** The anchor's alarm event of a device (live/anchor.ts), which the detector turns into an anchorExit alarm. */
const anchorEvent = (deviceId: number): Event => ({
  id: 0,
  type: 'alarm',
  eventTime: new Date().toISOString(),
  deviceId,
  positionId: 0,
  geofenceId: 0,
  maintenanceId: 0,
  attributes: { alarm: 'tow', anchor: true },
});

const alarmsOf = async (deviceId: number) =>
  expectStatus<Alarm[]>(
    await api(t.app, t.admin, 'GET', `/rastro/alarms?deviceId=${deviceId}&all=true`),
    200,
  );

describe("a batch's alarms are one transaction", () => {
  it('the second alarm refused: the first is not stored either; then both are', async () => {
    const first = await createDevice(t);
    const second = await createDevice(t);
    const detector = alarmDetector(t.ctx)!;
    await whileRefused('alarms', 'deviceId', second.id, () =>
      detector.onEvents([anchorEvent(first.id), anchorEvent(second.id)]),
    );
    expect(await alarmsOf(first.id)).toEqual([]);
    expect(await alarmsOf(second.id)).toEqual([]);
    await detector.onEvents([anchorEvent(first.id), anchorEvent(second.id)]);
    for (const d of [first, second])
      expect((await alarmsOf(d.id)).map((a) => [a.type, a.count])).toEqual([['anchorExit', 1]]);
  });
});

describe("an operator's step is one transaction", () => {
  it('an acknowledge whose note is refused leaves the alarm open, without note or audit; then it goes through', async () => {
    const d = await createDevice(t);
    await alarmDetector(t.ctx)!.onEvents([anchorEvent(d.id)]);
    const [alarm] = await alarmsOf(d.id);
    expect(alarm.state).toBe('open');
    const ack = () => api(t.app, t.admin, 'POST', `/rastro/alarms/${alarm.id}/ack`, { note: 'calling' });
    let refused = 0;
    await whileRefused('alarm_notes', 'alarmId', alarm.id, async () => {
      refused = (await ack()).statusCode;
    });
    expect(refused).toBeGreaterThanOrEqual(500);
    const [after] = await alarmsOf(d.id);
    expect(after).toMatchObject({ state: 'open', ackUserId: null, notes: [] });
    expect(await count(t.ctx.store.sql, 'actions', { actionType: 'alarm', objectId: alarm.id })).toBe(0);
    const done = expectStatus<Alarm>(await ack(), 200);
    expect(done.state).toBe('acknowledged');
    expect(done.ackUserId).toBeGreaterThan(0);
    expect(done.notes.map((n) => n.text)).toEqual(['calling']);
    expect(await count(t.ctx.store.sql, 'actions', { actionType: 'alarm', objectId: alarm.id })).toBe(1);
  });
});
