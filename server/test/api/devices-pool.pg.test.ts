// The API's hottest reads on PostgreSQL's read pool (issue #30, session 23; db/pool.ts): the request's session and
// user, the permission-scoped device list (links, groups, devices), positions and events. While one of those reads
// waits on the database the main thread serves other requests; a terminated pooled connection answers 503 with
// the translated message and the next request 200; a write through the synchronous store is seen by the pooled read
// that follows it. A read is held in the database by a lock this test takes on one table (ACCESS EXCLUSIVE makes
// every read of it wait), so the order is certain without any timing.
import { formatMessage } from '@rastro/domain';
import postgres from 'postgres';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  createDevice,
  createObject,
  createUser,
  expectStatus,
  link,
  type CreatedUser,
  type TestApp,
} from '../helpers/app.ts';
import { ingestPosition } from '../helpers/live.ts';
import { first } from '../support/testSql.ts';
import { startPgTestApp } from '../support/pgLocks.ts';

let t: TestApp;
let url: string;
let user: CreatedUser;
let locker: postgres.Sql | null = null;
/** A position and an alarm event of the user's directly linked device. */
let positionId = 0;
let eventId = 0;

beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
  user = await createUser(t);
  const group = await createObject(t, 'groups', { name: 'Pool group' });
  const direct = await createDevice(t, { name: 'Pool direct' });
  await createDevice(t, { name: 'Pool in group', groupId: group.id });
  await link(t, { userId: user.id, deviceId: direct.id });
  await link(t, { userId: user.id, groupId: group.id });
  const fixTime = new Date(Date.now() - 60_000);
  positionId = (await ingestPosition(t, { uniqueId: direct.uniqueId, fixTime, attributes: { alarm: 'sos' } }))
    .id;
  const alarm = (await first(
    t.ctx.store.sql,
    'events',
    { deviceId: direct.id, type: 'alarm' },
    { columns: ['id'] },
  )) as { id: number };
  eventId = alarm.id;
});
afterEach(async () => {
  await locker?.end({ timeout: 1 });
  locker = null;
});
afterAll(async () => {
  await t?.close();
});

/** Takes an ACCESS EXCLUSIVE lock on `table` in a transaction left open; ROLLBACK releases it. */
async function lock(table: string): Promise<postgres.Sql> {
  locker = postgres(url, { max: 1, onnotice: () => undefined });
  await locker.unsafe('BEGIN');
  await locker.unsafe(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
  return locker;
}

/**
 * The backends waiting for the lock on `table`: once there is one, the request is waiting in the database. Looked at
 * for 5 s at most (on the synchronous path nothing runs here until the request ended).
 */
async function waitersOn(table: string): Promise<number[]> {
  const watcher = postgres(url, { max: 1, onnotice: () => undefined });
  try {
    let pids: number[] = [];
    for (let i = 0; i < 100 && !pids.length; i++) {
      const rows = await watcher.unsafe(
        `SELECT pid FROM pg_locks WHERE relation = '${table}'::regclass AND NOT granted ORDER BY pid`,
      );
      pids = (rows as unknown as Array<{ pid: number }>).map((r) => r.pid);
      if (!pids.length) await new Promise((r) => setTimeout(r, 50));
    }
    return pids;
  } finally {
    await watcher.end({ timeout: 1 });
  }
}

const names = (res: { json(): unknown }) => (res.json() as Array<{ name: string }>).map((d) => d.name).sort();

describe('API reads on the read pool', () => {
  // sessions and users: the request's caller; links and groups: whom the user sees; devices: the list itself
  it.each(['sessions', 'users', 'links', 'groups', 'devices'])(
    'GET /api/devices waiting on a locked %s table does not hold the server: health is answered first',
    async (table) => {
      const held = await lock(table);
      const order: string[] = [];
      const list = api(t.app, user.cookie, 'GET', '/api/devices').then((res) => {
        order.push('devices');
        return res;
      });
      expect((await waitersOn(table)).length).toBeGreaterThan(0);
      const health = await api(t.app, null, 'GET', '/api/health');
      order.push('health');
      expect(health.statusCode).toBe(200);
      await held.unsafe('ROLLBACK');
      const res = await list;
      expect(order).toEqual(['health', 'devices']);
      expect(res.statusCode).toBe(200);
      expect(names(res)).toEqual(['Pool direct', 'Pool in group']);
    },
  );

  // positions by id and the latest ones (whom the user sees: links), an event by id (the device's audience: links)
  it.each([
    ['positions', '/api/positions?id={position}'],
    ['links', '/api/positions'],
    ['events', '/api/events/{event}'],
    ['links', '/api/events/{event}'],
  ])('a read waiting on a locked %s table (GET %s) does not hold the server', async (table, pattern) => {
    const path = () => pattern.replace('{position}', String(positionId)).replace('{event}', String(eventId));
    t.ctx.bus.emit('permissions'); // the device's audience is read again, not taken from the cache
    const held = await lock(table);
    const order: string[] = [];
    const read = api(t.app, user.cookie, 'GET', path()).then((res) => {
      order.push('read');
      return res;
    });
    expect((await waitersOn(table)).length).toBeGreaterThan(0);
    expect((await api(t.app, null, 'GET', '/api/health')).statusCode).toBe(200);
    order.push('health');
    await held.unsafe('ROLLBACK');
    const res = await read;
    expect(order).toEqual(['health', 'read']);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { id: number } | Array<{ id: number }>;
    expect(Array.isArray(body) ? body.map((p) => p.id) : body.id).toEqual(
      path().startsWith('/api/events') ? eventId : [positionId],
    );
  });

  it('a device list whose pooled connection is terminated answers 503, translated; the next one 200', async () => {
    const held = await lock('devices');
    const list = api(t.app, user.cookie, 'GET', '/api/devices');
    const pids = await waitersOn('devices');
    expect(pids.length).toBeGreaterThan(0);
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      await admin.unsafe('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
    } finally {
      await admin.end({ timeout: 1 });
    }
    const res = await list;
    await held.unsafe('ROLLBACK');
    expect(res.statusCode).toBe(503);
    expect(res.body).toBe(
      `WebApplicationException: ${formatMessage('traccarErrors.databaseUnavailable', 'pt-BR')}`,
    );
    let again = await api(t.app, user.cookie, 'GET', '/api/devices');
    // the pool connects again in the background: a moment may pass before the lost connection is back
    for (let i = 0; i < 100 && again.statusCode === 503; i++) {
      await new Promise((r) => setTimeout(r, 100));
      again = await api(t.app, user.cookie, 'GET', '/api/devices');
    }
    expect(again.statusCode).toBe(200);
    expect(names(again)).toEqual(['Pool direct', 'Pool in group']);
  });

  it('reads its own writes: a device created, renamed, linked and unlinked is listed as it is now', async () => {
    const made = await createDevice(t, { name: 'Pool written' });
    const all = expectStatus<Array<{ id: number }>>(
      await api(t.app, t.admin, 'GET', '/api/devices?all=true'),
      200,
    );
    expect(all.map((d) => d.id)).toContain(made.id);
    const renamed = { ...made, name: 'Pool renamed' };
    expectStatus(await api(t.app, t.admin, 'PUT', `/api/devices/${made.id}`, renamed), 200);
    const one = expectStatus<Array<{ name: string }>>(
      await api(t.app, t.admin, 'GET', `/api/devices?id=${made.id}`),
      200,
    );
    expect(one.map((d) => d.name)).toEqual(['Pool renamed']);
    await link(t, { userId: user.id, deviceId: made.id });
    const seen = await api(t.app, user.cookie, 'GET', '/api/devices');
    expect(names(seen)).toEqual(['Pool direct', 'Pool in group', 'Pool renamed']);
    expectStatus(
      await api(t.app, t.admin, 'DELETE', '/api/permissions', { userId: user.id, deviceId: made.id }),
      204,
    );
    expect(names(await api(t.app, user.cookie, 'GET', '/api/devices'))).toEqual([
      'Pool direct',
      'Pool in group',
    ]);
  });

  it('a new session signs in at once and a deleted one is anonymous at once', async () => {
    const other = await createUser(t);
    expect((await api(t.app, other.cookie, 'GET', '/api/devices')).statusCode).toBe(200);
    expectStatus(await api(t.app, other.cookie, 'DELETE', '/api/session'), 204);
    expect((await api(t.app, other.cookie, 'GET', '/api/devices')).statusCode).toBe(401);
  });
});
