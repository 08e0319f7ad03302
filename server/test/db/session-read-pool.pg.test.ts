// The sign-in and session reads are on the read pool, not the synchronous handle (issue #30, session 34, H30v): while
// another connection holds the sessions table (users, tokens) locked, a request that reads it waits in the database
// and /api/health is answered meanwhile; once the lock is released the request completes. Were a read of the request
// on the synchronous worker (retired in session 38), the main thread would wait with it and /api/health could not be
// answered before the lock's release. The order is certain without any timing: the test sees the request waiting in
// pg_locks before it asks for health.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { api, createUser, postForm, type TestApp } from '../helpers/app.ts';
import { lockClients, startPgTestApp, untilLockWaited } from '../support/pgLocks.ts';

let t: TestApp;
let url: string;
beforeAll(async () => {
  ({ t, url } = await startPgTestApp());
});
afterAll(async () => {
  await t?.close();
});

/**
 * Holds `table` locked (ACCESS EXCLUSIVE: reads wait too) on another connection while `request` runs: the order of
 * /api/health's answer and the request's, and the request's answer.
 */
async function whileTableLocked(
  table: string,
  request: () => Promise<LightMyRequestResponse>,
): Promise<{ order: string[]; res: LightMyRequestResponse }> {
  const { locker, watcher, end } = lockClients(url);
  try {
    await locker.unsafe('BEGIN');
    await locker.unsafe(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    const order: string[] = [];
    const done = request().then((res) => {
      order.push('request');
      return res;
    });
    await untilLockWaited(watcher, 'relation');
    const health = await api(t.app, null, 'GET', '/api/health');
    order.push('health');
    expect(health.statusCode).toBe(200);
    await locker.unsafe('ROLLBACK');
    return { order, res: await done };
  } finally {
    await end();
  }
}

describe('session reads on the read pool while the table is locked', () => {
  it('GET /api/session (the session, its user, the log-in-as original): health first', async () => {
    const user = await createUser(t);
    const { order, res } = await whileTableLocked('sessions', () =>
      api(t.app, user.cookie, 'GET', '/api/session'),
    );
    expect(order).toEqual(['health', 'request']);
    expect(res.statusCode).toBe(200);
  });

  it("POST /api/session/token with remember-me (the session's expiry and id): health first", async () => {
    const user = await createUser(t);
    const { order, res } = await whileTableLocked('sessions', () =>
      postForm(t.app, user.cookie, '/api/session/token', { rememberMe: 'true' }),
    );
    expect(order).toEqual(['health', 'request']);
    expect(res.statusCode).toBe(200);
  });

  it('a bearer token and its revoke form (tokens): health first', async () => {
    const user = await createUser(t);
    const token = (await postForm(t.app, user.cookie, '/api/session/token', {})).body;
    const bearer = await whileTableLocked('tokens', () =>
      t.app.inject({ method: 'GET', url: '/api/server', headers: { authorization: `Bearer ${token}` } }),
    );
    expect(bearer.order).toEqual(['health', 'request']);
    expect(bearer.res.statusCode).toBe(200);
    const revoke = await whileTableLocked('tokens', () =>
      postForm(t.app, user.cookie, '/api/session/token/revoke', { token }),
    );
    expect(revoke.order).toEqual(['health', 'request']);
    expect(revoke.res.statusCode).toBe(204);
  });

  it('a password login and GET /api/server (users): health first', async () => {
    const user = await createUser(t);
    const signIn = await whileTableLocked('users', () =>
      postForm(t.app, null, '/api/session', { email: user.email, password: user.password }),
    );
    expect(signIn.order).toEqual(['health', 'request']);
    expect(signIn.res.statusCode).toBe(200);
    const server = await whileTableLocked('users', () => api(t.app, null, 'GET', '/api/server'));
    expect(server.order).toEqual(['health', 'request']);
    expect(server.res.statusCode).toBe(200);
  });
});
