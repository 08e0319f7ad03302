// The server's flags are read at most once per request (issue #30, session 36, H30g; server/src/serverFlags.ts): the
// gate (authorize.ts), the route's checks (access.ts checkWrite, checkRestriction, restricted, serverSwitch) and
// the refusal's language (refusal.ts) share the request's one read; a request that needs no flag reads none; a flag
// written behind the API (straight in the store) is honoured on the next request; a refusal's language is the one
// its own request read, never another request's. On both stores (the reads counted on the repository function).
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatMessage } from '@rastro/domain';
import * as serverRepo from '../../src/db/repos/server.ts';
import { qb, rowAsync, writeAsync } from '../../src/db/repos/query.ts';
import { requestLanguage } from '../../src/refusal.ts';
import { withServerFlagsRead } from '../../src/serverFlags.ts';
import { checkRestriction, checkWrite, serverSwitch } from '../../src/traccar/access.ts';
import { findUserAsync } from '../../src/traccar/auth.ts';
import { api, createDevice, createUser, expectStatus, makeTestApp, type TestApp } from '../helpers/index.ts';

vi.mock('../../src/db/repos/server.ts', async (original) => {
  const actual = await original<typeof serverRepo>();
  return { ...actual, serverFlagsRowAsync: vi.fn(actual.serverFlagsRowAsync) };
});
const reads = vi.mocked(serverRepo.serverFlagsRowAsync);

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  reads.mockClear();
});

async function attributesBehind(values: Record<string, unknown>): Promise<void> {
  const db = t.ctx.store.sql;
  const stored = await rowAsync(db, qb(db).selectFrom('server').select('attributes').where('id', '=', 1));
  const attributes = { ...(JSON.parse(stored?.attributes || '{}') as Record<string, unknown>), ...values };
  await writeAsync(
    db,
    qb(db)
      .updateTable('server')
      .set({ attributes: JSON.stringify(attributes) })
      .where('id', '=', 1),
  );
}

describe('one read of the server flags per request', () => {
  it('a request whose gate and checks all need the flags reads the row once', async () => {
    const u = await createUser(t);
    const device = await createDevice(t, { name: 'Once' });
    const requests = [
      () =>
        api(t.app, u.cookie, 'POST', '/api/geofences', { name: 'Once', area: 'CIRCLE (-23.5 -46.6, 100)' }),
      () => api(t.app, u.cookie, 'POST', '/api/devices', { name: 'Mine', uniqueId: `once-${Date.now()}` }),
      () => api(t.app, u.cookie, 'POST', '/api/permissions', { userId: u.id, deviceId: device.id }),
      () =>
        api(
          t.app,
          u.cookie,
          'DELETE',
          `/api/positions?deviceId=${device.id}&from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z`,
        ),
      () =>
        api(t.app, u.cookie, 'POST', '/api/commands/send', {
          deviceId: device.id,
          type: 'custom',
          attributes: { data: 'x' },
        }),
      () => api(t.app, u.cookie, 'PUT', `/api/users/${u.id}`, { id: u.id, name: 'Renamed', email: u.email }),
    ];
    for (const request of requests) {
      reads.mockClear();
      const res = await request();
      expect(res.statusCode).toBeLessThan(500);
      expect(reads.mock.calls.length).toBeLessThanOrEqual(1);
    }
  });

  it('a request that needs no flag reads none', async () => {
    expect((await api(t.app, null, 'GET', '/api/health')).statusCode).toBe(200);
    expect(reads).not.toHaveBeenCalled();
  });

  it('a job run reads once for all its checks; each run reads again', async () => {
    const row = (await findUserAsync(t.ctx, (await createUser(t)).id))!;
    const run = () =>
      withServerFlagsRead(async () => {
        await checkWrite(t.ctx, row);
        await checkWrite(t.ctx, row, 'device');
        await checkRestriction(t.ctx, row, 'limitCommands');
        return serverSwitch(t.ctx, 'disableShare');
      });
    await attributesBehind({ disableShare: false });
    reads.mockClear();
    expect(await run()).toBe(false);
    expect(reads).toHaveBeenCalledTimes(1);
    await attributesBehind({ disableShare: true });
    expect(await run()).toBe(true); // written behind the app: the next run sees it
    expect(reads).toHaveBeenCalledTimes(2);
    await attributesBehind({ disableShare: false });
  });

  it('a switch written behind the app is honoured by the next request', async () => {
    const u = await createUser(t);
    const device = await createDevice(t, { name: 'Shared' });
    await api(t.app, t.admin, 'POST', '/api/permissions', { userId: u.id, deviceId: device.id });
    const share = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/share/device',
        headers: { cookie: u.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `deviceId=${device.id}&expiration=2099-01-01T00:00:00Z`,
      });
    await attributesBehind({ disableShare: true });
    reads.mockClear();
    const off = await share();
    expect(off.statusCode).toBe(400);
    expect(off.body).toContain('Sharing is disabled');
    expect(reads.mock.calls.length).toBeLessThanOrEqual(1);
    await attributesBehind({ disableShare: false });
    reads.mockClear();
    const on = await share();
    expect(on.statusCode).toBe(200);
    expect(reads.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it("a refusal's language is the one its own run read, not another's read since", async () => {
    const lang = `${t.ctx.config.ns}.lang`;
    await attributesBehind({ [lang]: 'es' });
    const languages = await withServerFlagsRead(async () => {
      await serverSwitch(t.ctx, 'disableShare'); // this run reads the server in Spanish
      await attributesBehind({ [lang]: 'en-US' });
      const other = await withServerFlagsRead(async () => {
        await serverSwitch(t.ctx, 'disableShare'); // another run reads it in English meanwhile
        return requestLanguage(t.ctx, null);
      });
      return [requestLanguage(t.ctx, null), other];
    });
    expect(languages).toEqual(['es', 'en-US']);
    const u = await createUser(t);
    const self = expectStatus<{ attributes: Record<string, unknown> }>(
      await api(t.app, u.cookie, 'GET', `/api/users/${u.id}`),
      200,
    );
    const field = `${t.ctx.config.ns}.advancedPerms`;
    reads.mockClear();
    const res = await api(t.app, u.cookie, 'PUT', `/api/users/${u.id}`, {
      ...self,
      attributes: { ...self.attributes, [field]: 'f'.repeat(32) },
    });
    expect(res.body).toBe(`SecurityException: ${formatMessage('denied.protectedField', 'en-US', { field })}`);
    expect(reads).toHaveBeenCalledTimes(1);
    await attributesBehind({ [lang]: 'pt-BR' });
    expect(requestLanguage(t.ctx, null)).toBe('pt-BR'); // outside a request or run: nothing read, the default
  });
});
