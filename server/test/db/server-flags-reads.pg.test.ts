// The gate's server flags, the refusal language and the resellers' walks on PostgreSQL read on the pool (issue #30,
// session 35, H30x): (1) access.ts' flag checks, resellers.ts' walks, auth.ts findUserAsync and a request refused in
// the server's language answer (PostgreSQL's store has no synchronous statement since session 38); (2) a request
// whose flags read waits on a lock (another connection holds `server` ACCESS EXCLUSIVE in an open transaction) does
// not hold the server: /api/health answers first, then the request that waited is answered. Before session 35,
// serverFlagsRow went through a synchronous worker.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { formatMessage } from '@rastro/domain';
import {
  checkRestriction,
  checkWrite,
  isManagerOf,
  managedUserIds,
  restricted,
  serverAttribute,
  serverFlagsAsync,
  serverSwitch,
} from '../../src/traccar/access.ts';
import { findUserAsync } from '../../src/traccar/auth.ts';
import { managesInSubtree, resellersAbove, subtreeUserIds } from '../../src/traccar/resellers.ts';
import { api, createUser, expectStatus, link, type TestApp } from '../helpers/index.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  vi.restoreAllMocks();
  await t?.close();
});

describe('the server flags and the resellers’ walks on PostgreSQL', () => {
  it('flag checks, walks and a translated refusal: no statement through the synchronous handle', async () => {
    const ns = t.ctx.config.ns;
    const reseller = await createUser(t, { userLimit: 10, attributes: { [`${ns}.reseller`]: true } });
    const middle = await createUser(t, { userLimit: 5 });
    const below = await createUser(t);
    await link(t, { userId: reseller.id, managedUserId: middle.id });
    await link(t, { userId: middle.id, managedUserId: below.id });
    const self = expectStatus<{ attributes: Record<string, unknown> }>(
      await api(t.app, below.cookie, 'GET', `/api/users/${below.id}`),
      200,
    );
    const user = (await findUserAsync(t.ctx, below.id))!;
    const resellerRow = (await findUserAsync(t.ctx, reseller.id))!;
    expect((await serverFlagsAsync(t.ctx)).readonly).toBeFalsy();
    expect(await serverSwitch(t.ctx, 'totpForce')).toBe(false);
    expect(await serverAttribute(t.ctx, 'no-such-attribute')).toBeUndefined();
    expect(await restricted(t.ctx, user, 'readonly')).toBe(false);
    await checkWrite(t.ctx, user);
    await checkRestriction(t.ctx, user, 'disableReports');
    expect(await subtreeUserIds(t.ctx, reseller.id)).toEqual(expect.arrayContaining([middle.id, below.id]));
    expect((await resellersAbove(t.ctx, below.id)).map((r) => r.id)).toEqual([reseller.id]);
    expect(await managesInSubtree(t.ctx, resellerRow, below.id)).toBe(true);
    expect(await isManagerOf(t.ctx, reseller.id, below.id)).toBe(true);
    expect(await managedUserIds(t.ctx, reseller.id)).toEqual(expect.arrayContaining([middle.id, below.id]));
    const field = `${ns}.advancedPerms`;
    const refused = await api(t.app, below.cookie, 'PUT', `/api/users/${below.id}`, {
      ...self,
      attributes: { ...self.attributes, [field]: 'f'.repeat(32) },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toBe(
      `SecurityException: ${formatMessage('denied.protectedField', 'pt-BR', { field })}`,
    );
  });

  it('a request whose flags read waits on a locked server table lets /api/health answer first', async () => {
    const { locker, watcher, end } = lockClients(url);
    try {
      await locker.unsafe('BEGIN');
      await locker.unsafe('LOCK TABLE server IN ACCESS EXCLUSIVE MODE');
      const order: string[] = [];
      const key = api(t.app, null, 'POST', '/api/users/totp').then((r) => {
        order.push('totp');
        return r;
      });
      await untilLockWaited(watcher, 'relation');
      const health = await api(t.app, null, 'GET', '/api/health');
      order.push('health');
      expect(health.statusCode).toBe(200);
      await locker.unsafe('ROLLBACK');
      const answered = await key;
      expect(answered.statusCode).toBe(400); // totpEnable is off: the switch was read once the lock went
      expect(answered.body).toContain('One-time password is disabled');
      expect(order).toEqual(['health', 'totp']);
    } finally {
      await end();
    }
  });
});
