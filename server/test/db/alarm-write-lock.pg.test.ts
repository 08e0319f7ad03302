// The monitoring desk's acknowledge and note wait on PostgreSQL locks without holding the server (issue #30, session
// 33; db/repos/alarms.ts on the write client, the step's writes and audit in one inTransaction): another connection
// holds the alarm's row (SELECT … FOR UPDATE) or the notes table (LOCK … IN SHARE MODE, which an INSERT waits for) in
// an open transaction, the step waits in the database, and /api/health is answered meanwhile; once the lock is
// released the step is stored. Before, these writes went through the synchronous worker (retired in session 38),
// which blocks the main thread until PostgreSQL answers. The order is certain without any timing: the test sees the
// write waiting in pg_locks first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alarm, Event } from '@rastro/domain';
import { alarmDetector } from '../../src/ext/alarms.ts';
import { api, createDevice, expectStatus, type TestApp } from '../helpers/app.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  await t?.close();
});

/** A new open alarm (an anchor exit) of a new device. */
async function openAlarm(): Promise<Alarm> {
  const d = await createDevice(t);
  const event: Event = {
    id: 0,
    type: 'alarm',
    eventTime: new Date().toISOString(),
    deviceId: d.id,
    positionId: 0,
    geofenceId: 0,
    maintenanceId: 0,
    attributes: { alarm: 'tow', anchor: true },
  };
  await alarmDetector(t.ctx)!.onEvents([event]);
  const list = await api(t.app, t.admin, 'GET', `/rastro/alarms?deviceId=${d.id}`);
  return expectStatus<Alarm[]>(list, 200)[0];
}

/**
 * Holds a lock (`lock`, in an open transaction of another connection) while `step` is posted: resolves once the
 * step is seen waiting, /api/health was answered and the lock released; the order of health and the step's end.
 */
async function whileLocked(
  lock: string,
  params: Array<string | number>,
  locktype: 'transactionid' | 'relation',
  step: () => Promise<unknown>,
): Promise<string[]> {
  const { locker, watcher, end } = lockClients(url);
  try {
    await locker.unsafe('BEGIN');
    await locker.unsafe(lock, params);
    const order: string[] = [];
    const done = step().then(() => order.push('step'));
    await untilLockWaited(watcher, locktype);
    const health = await api(t.app, null, 'GET', '/api/health');
    order.push('health');
    expect(health.statusCode).toBe(200);
    await locker.unsafe('ROLLBACK');
    await done;
    return order;
  } finally {
    await end();
  }
}

describe('the alarm steps waiting on a lock', () => {
  it("an acknowledge with a note, the alarm's row locked: /api/health answers first, then it is stored", async () => {
    const alarm = await openAlarm();
    let answer: Alarm | null = null;
    const order = await whileLocked(
      'SELECT id FROM alarms WHERE id = $1 FOR UPDATE',
      [alarm.id],
      'transactionid',
      async () => {
        const res = await api(t.app, t.admin, 'POST', `/rastro/alarms/${alarm.id}/ack`, { note: 'on it' });
        answer = expectStatus<Alarm>(res, 200);
      },
    );
    expect(order).toEqual(['health', 'step']);
    expect(answer).toMatchObject({ state: 'acknowledged', notes: [{ text: 'on it' }] });
  });

  it('a note, the notes table locked against inserts: /api/health answers first, then it is stored', async () => {
    const alarm = await openAlarm();
    const order = await whileLocked('LOCK TABLE alarm_notes IN SHARE MODE', [], 'relation', async () => {
      const res = await api(t.app, t.admin, 'POST', `/rastro/alarms/${alarm.id}/note`, { text: 'called' });
      expect(expectStatus<Alarm>(res, 200).notes.map((n) => n.text)).toEqual(['called']);
    });
    expect(order).toEqual(['health', 'step']);
  });
});
