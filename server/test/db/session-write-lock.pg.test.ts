// The session gate's writes and a share's revoke wait on PostgreSQL row locks without holding the server (issue #30,
// session 32; db/repos/sessions.ts on the write client, traccar/share.ts's revoke on inTransaction): another
// connection holds the row (SELECT … FOR UPDATE in an open transaction), the write waits in the database, and
// /api/health is answered meanwhile; once the lock is released the write is stored. Before, these writes went through
// the synchronous worker (retired in session 38), which blocks the main thread until PostgreSQL answers. The order is
// certain without any timing: the test sees the write waiting in pg_locks before it asks for health.
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findSessionAsync } from '../../src/db/repos/sessions.ts';
import { findUserByIdAsync } from '../../src/db/repos/users.ts';
import { createShare, revokeShare } from '../../src/traccar/share.ts';
import { api, createDevice, createUser, type TestApp } from '../helpers/app.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';
import { count } from '../support/testSql.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  await t?.close();
});

/**
 * Holds `table`'s row `id` locked on another connection while `write` runs: resolves once the write is seen waiting
 * for the lock, /api/health was answered and the lock released; the order of health and the write's end.
 */
async function whileLocked(
  table: string,
  id: string | number,
  write: () => Promise<unknown>,
): Promise<string[]> {
  const { locker, watcher, end } = lockClients(url);
  try {
    await locker.unsafe('BEGIN');
    await locker.unsafe(`SELECT id FROM ${table} WHERE id = $1 FOR UPDATE`, [id]);
    const order: string[] = [];
    const done = write().then(() => order.push('write'));
    await untilLockWaited(watcher, 'transactionid');
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

describe('asynchronous session writes waiting on a row lock', () => {
  it("the gate's last-seen write: /api/health answers first, then the request and the write", async () => {
    const user = await createUser(t);
    const id = user.cookie.slice('JSESSIONID='.length);
    const old = new Date(Date.now() - 5 * 60_000).toISOString();
    const setter = postgres(url, { max: 1, onnotice: () => undefined });
    try {
      await setter.unsafe('UPDATE sessions SET "lastSeenAt" = $1 WHERE id = $2', [old, id]);
    } finally {
      await setter.end({ timeout: 1 });
    }
    let status = 0;
    const order = await whileLocked('sessions', id, async () => {
      status = (await api(t.app, user.cookie, 'GET', '/api/session')).statusCode;
    });
    expect(order).toEqual(['health', 'write']);
    expect(status).toBe(200);
    expect(Date.parse((await findSessionAsync(t.ctx.store.sql, id))!.lastSeenAt!)).toBeGreaterThan(
      Date.parse(old),
    );
  });

  it("a share's revoke transaction: /api/health answers first, then everything is revoked", async () => {
    const owner = await createUser(t, { administrator: true });
    const device = await createDevice(t, { name: 'Locked share' });
    const db = t.ctx.store.sql;
    const share = await createShare(
      t.ctx,
      (await findUserByIdAsync(db, owner.id))!,
      { type: 'device', id: device.id },
      new Date(Date.now() + 3_600_000),
    );
    // the share's row is locked: the transaction has revoked the token and deleted its sessions, then waits
    const order = await whileLocked('shares', share.id, () => revokeShare(t.ctx, share.id));
    expect(order).toEqual(['health', 'write']);
    expect(await count(db, 'shares', { id: share.id })).toBe(0);
    expect(
      (await api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(share.token)}`)).statusCode,
    ).toBe(401);
  });
});
