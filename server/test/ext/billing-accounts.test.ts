// Billing accounts (server/src/ext/billing/accounts.ts, job.ts): login refusal of a suspended user, admin
// suspend/reactivate with audit rows, the one-time trust unlock, the billing job (monthly invoice, OVERDUE,
// auto-suspension after autoSuspendDays, lift after payment) with an injected clock, and enableBilling off.
import type { LightMyRequestResponse } from 'fastify';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Invoice } from '@rastro/domain';
import { configureBilling, runBillingJobNow, setBillingClock } from '../../src/ext/billing/index.ts';
import { LOGIN_MAX_FAILURES } from '../../src/traccar/auth.ts';
import { generateTotpKey, totpCode } from '../../src/traccar/totp.ts';
import { api, createUser, expectStatus, login, makeTestApp, type TestApp } from '../helpers/index.ts';
import { first, select, update } from '../support/testSql.ts';

const at = (iso: string) => Date.parse(iso);

describe('billing accounts (Plus, embedded)', () => {
  let t: TestApp;
  let now = at('2026-12-15T10:00:00Z');

  const setBilling = async (on: boolean) =>
    await update(
      t.ctx.store.sql,
      'server',
      { attributes: JSON.stringify({ 'rastro.enableBilling': on }) },
      { id: 1 },
    );
  const attrsOf = async (id: number) =>
    JSON.parse(
      (
        (await first(t.ctx.store.sql, 'users', { id }, { columns: ['attributes'] })) as {
          attributes: string;
        }
      ).attributes,
    ) as Record<string, unknown>;
  const signIn = (email: string, password: string): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email, password }).toString(),
    });
  const trustUnlock = (email: string, password: string) =>
    t.app.inject({ method: 'POST', url: '/rastro/billing/trust-unlock', payload: { email, password } });
  const suspend = (id: number, cookie = t.admin) => api(t.app, cookie, 'POST', `/rastro/users/${id}/suspend`);
  const reactivate = (id: number, cookie = t.admin) =>
    api(t.app, cookie, 'POST', `/rastro/users/${id}/reactivate`);
  const invoicesOf = async (id: number) =>
    (await select(t.ctx.store.sql, 'invoices', { userId: id }, { orderBy: ['id'] })) as Invoice[];
  const auditOf = async (id: number) =>
    (
      (await select(
        t.ctx.store.sql,
        'actions',
        { objectType: 'user', objectId: id },
        { columns: ['userId', 'actionType', 'attributes'] },
      )) as { userId: number; actionType: string; attributes: string }[]
    ).map((a) => ({ ...a, attributes: JSON.parse(a.attributes) as Record<string, unknown> }));

  beforeAll(async () => {
    t = await makeTestApp();
    setBillingClock(t.ctx, () => now);
  });
  afterAll(async () => {
    await t.close();
  });
  beforeEach(async () => {
    now = at('2026-12-15T10:00:00Z');
    await setBilling(true);
  });

  it('refuses the sign-in (and cookie / token sessions) of a suspended user with the 403 JSON', async () => {
    const u = await createUser(t, { attributes: { 'rastro.billing': true, 'rastro.trustUnlock': true } });
    const plain = await createUser(t, { attributes: { 'rastro.billing': true } });
    const token = expectStatus<string>(await api(t.app, u.cookie, 'POST', '/api/session/token'), 200);
    const inv = expectStatus<Invoice>(
      await api(t.app, t.admin, 'POST', '/rastro/invoices', {
        userId: u.id,
        value: 89.9,
        dueDate: '2026-12-10',
      }),
      200,
    );
    expect((await suspend(u.id)).statusCode).toBe(204);
    expect((await suspend(plain.id)).statusCode).toBe(204);
    expect((await attrsOf(u.id))['rastro.suspended']).toBe(true);

    const res = await signIn(u.email, u.password);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      error: 'ACCOUNT_IS_SUSPENDED_TRUST',
      trustAvailable: true,
      invoices: [
        { id: inv.id, dueDate: '2026-12-10', value: 89.9, status: 'TARKAN_GENERATED', invoiceUrl: null },
      ],
    });
    expect(res.cookies.find((c) => c.name === 'JSESSIONID')).toBeUndefined();
    // The suspension ended the user's cookie sessions; an API token is refused with the same JSON.
    expect((await api(t.app, u.cookie, 'GET', '/api/session')).statusCode).toBe(404);
    const byToken = await api(t.app, null, 'GET', `/api/session?token=${encodeURIComponent(token)}`);
    expect(byToken.statusCode).toBe(403);
    expect(byToken.json()).toMatchObject({ error: 'ACCOUNT_IS_SUSPENDED_TRUST', trustAvailable: true });

    const other = await signIn(plain.email, plain.password);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toEqual({ error: 'ACCOUNT_IS_SUSPENDED', trustAvailable: false, invoices: [] });
    // A wrong password is still 401, not a hint that the account exists.
    expect((await signIn(plain.email, 'wrong')).statusCode).toBe(401);
  });

  it('finding: Basic and Bearer calls of a suspended user are refused on every route with the 403 JSON', async () => {
    const u = await createUser(t, { attributes: { 'rastro.billing': true } });
    const token = expectStatus<string>(await api(t.app, u.cookie, 'POST', '/api/session/token'), 200);
    const basic = `Basic ${Buffer.from(`${u.email}:${u.password}`).toString('base64')}`;
    const bearer = `Bearer ${token}`;
    const call = (authorization: string, url: string, method: 'GET' | 'POST' = 'GET') =>
      t.app.inject({ method, url, headers: { authorization } });
    for (const auth of [basic, bearer]) expect((await call(auth, '/api/devices')).statusCode).toBe(200);
    expect((await suspend(u.id)).statusCode).toBe(204);
    for (const auth of [basic, bearer]) {
      for (const url of [
        '/api/devices',
        '/api/positions',
        '/api/reports/summary?from=2026-12-01T00:00:00Z&to=2026-12-02T00:00:00Z',
        '/rastro/devices/1/logs',
      ]) {
        const res = await call(auth, url);
        expect(res.statusCode, `${url}`).toBe(403);
        expect(res.json()).toMatchObject({ error: 'ACCOUNT_IS_SUSPENDED', trustAvailable: false });
      }
      // what a suspended user still needs: the session answer (the same JSON) and its own invoices, to pay them
      expect((await call(auth, '/api/session')).statusCode).toBe(403);
      expect((await call(auth, '/rastro/invoices')).statusCode).toBe(200);
    }
    expect((await reactivate(u.id)).statusCode).toBe(204);
    for (const auth of [basic, bearer]) expect((await call(auth, '/api/devices')).statusCode).toBe(200);
  });

  it('never suspends an administrator', async () => {
    const admin2 = await createUser(t, { administrator: true });
    const res = await suspend(admin2.id);
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('IllegalArgumentException: Administrators cannot be suspended');
    // Even a stored flag is ignored for administrators.
    await update(
      t.ctx.store.sql,
      'users',
      { attributes: JSON.stringify({ 'rastro.suspended': true }) },
      { id: admin2.id },
    );
    expect((await signIn(admin2.email, admin2.password)).statusCode).toBe(200);
  });

  it('suspend and reactivate are admin-only, write audit rows, and reactivation lets the user in', async () => {
    const u = await createUser(t);
    const other = await createUser(t);
    const refused = await suspend(u.id, other.cookie);
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toBe('SecurityException: Administrator access required');
    expect((await reactivate(u.id, other.cookie)).body).toBe(
      'SecurityException: Administrator access required',
    );
    expect((await suspend(987654)).statusCode).toBe(404);

    expect((await suspend(u.id)).statusCode).toBe(204);
    expect((await signIn(u.email, u.password)).statusCode).toBe(403);
    expect((await reactivate(u.id)).statusCode).toBe(204);
    expect(await attrsOf(u.id)).not.toHaveProperty('rastro.suspended');
    expect((await signIn(u.email, u.password)).statusCode).toBe(200);

    const adminId = (await api(t.app, t.admin, 'GET', '/api/session')).json<{ id: number }>().id;
    expect((await auditOf(u.id)).filter((a) => a.attributes.billing)).toEqual([
      { userId: adminId, actionType: 'edit', attributes: { billing: 'suspend' } },
      { userId: adminId, actionType: 'edit', attributes: { billing: 'reactivate' } },
    ]);
  });

  it('allows one trust unlock: in during the trust period, refused after it while still overdue', async () => {
    const u = await createUser(t, {
      attributes: { 'rastro.billing': true, 'rastro.trustUnlock': true, 'rastro.trustUnlockDays': 2 },
    });
    expectStatus(
      await api(t.app, t.admin, 'POST', '/rastro/invoices', {
        userId: u.id,
        value: 50,
        dueDate: '2026-12-10',
      }),
      200,
    );
    expect((await suspend(u.id)).statusCode).toBe(204);

    expect((await trustUnlock(u.email, 'wrong')).body).toBe(
      'IllegalArgumentException: Invalid email or password',
    );
    const bad = await t.app.inject({
      method: 'POST',
      url: '/rastro/billing/trust-unlock',
      payload: { email: '' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('email is required');

    // Form body, like the login form.
    const ok = await t.app.inject({
      method: 'POST',
      url: '/rastro/billing/trust-unlock',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ email: u.email, password: u.password }).toString(),
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ trustUntil: '2026-12-17T10:00:00.000Z' });
    expect((await auditOf(u.id)).find((a) => a.attributes.billing === 'trustUnlock')).toMatchObject({
      userId: u.id,
      attributes: { trustUntil: '2026-12-17T10:00:00.000Z' },
    });

    now = at('2026-12-16T09:00:00Z');
    const during = await signIn(u.email, u.password);
    expect(during.statusCode).toBe(200);
    const cookie = `JSESSIONID=${during.cookies.find((c) => c.name === 'JSESSIONID')!.value}`;
    expect((await trustUnlock(u.email, u.password)).body).toBe(
      'IllegalArgumentException: A trust period is already running until 2026-12-17T10:00:00.000Z',
    );

    now = at('2026-12-17T10:00:01Z');
    await runBillingJobNow(t.ctx);
    expect(await attrsOf(u.id)).not.toHaveProperty('rastro.trustUntil');
    const after = await signIn(u.email, u.password);
    expect(after.statusCode).toBe(403);
    expect(after.json()).toMatchObject({ error: 'ACCOUNT_IS_SUSPENDED', trustAvailable: false });
    expect(after.json<{ invoices: Invoice[] }>().invoices.map((i) => i.status)).toEqual(['OVERDUE']);
    // The session opened during the trust period is refused the same way once it is over.
    const stale = await api(t.app, cookie, 'GET', '/api/session');
    expect(stale.statusCode).toBe(403);
    expect(stale.json()).toMatchObject({ error: 'ACCOUNT_IS_SUSPENDED', trustAvailable: false });
    const second = await trustUnlock(u.email, u.password);
    expect(second.statusCode).toBe(400);
    expect(second.body).toBe('IllegalArgumentException: The trust unlock was already used');
  });

  it('refuses a trust unlock when it is not allowed or the account is not suspended; rate-limited', async () => {
    const u = await createUser(t, { attributes: { 'rastro.billing': true } });
    expect((await trustUnlock(u.email, u.password)).body).toBe(
      'IllegalArgumentException: The account is not suspended',
    );
    expect((await suspend(u.id)).statusCode).toBe(204);
    expect((await trustUnlock(u.email, u.password)).body).toBe(
      'IllegalArgumentException: Trust unlock is not available for this account',
    );
    for (let i = 0; i < LOGIN_MAX_FAILURES; i++) await trustUnlock(u.email, `wrong-${i}`);
    const limited = await trustUnlock(u.email, u.password);
    expect(limited.statusCode).toBe(429);
    // The login shares the same limiter.
    expect((await signIn(u.email, u.password)).statusCode).toBe(429);
  });

  it('the job creates the monthly invoice once, marks it OVERDUE, suspends after autoSuspendDays, lifts when paid', async () => {
    const u = await createUser(t, {
      attributes: {
        'rastro.billing': true,
        'rastro.billingPrice': 99.9,
        'rastro.billingDueDay': 10,
        'rastro.billingDescription': 'Rastreamento mensal',
        'rastro.autoSuspend': true,
        'rastro.autoSuspendDays': 5,
        'rastro.trustUnlock': true,
      },
    });
    now = at('2026-11-29T12:00:00Z'); // due 2026-12-10 is 11 days ahead
    expect((await runBillingJobNow(t.ctx)).created).not.toContain(u.id);
    expect(await invoicesOf(u.id)).toHaveLength(0);

    now = at('2026-11-30T09:00:00Z'); // 10 days ahead
    expect((await runBillingJobNow(t.ctx)).created).toContain(u.id);
    await runBillingJobNow(t.ctx);
    now = at('2026-12-05T09:00:00Z');
    await runBillingJobNow(t.ctx);
    const [inv, ...more] = await invoicesOf(u.id);
    expect(more).toHaveLength(0);
    expect(inv).toMatchObject({
      dueDate: '2026-12-10',
      value: 99.9,
      status: 'TARKAN_GENERATED',
      description: 'Rastreamento mensal',
    });

    now = at('2026-12-11T01:00:00Z');
    await runBillingJobNow(t.ctx);
    expect((await invoicesOf(u.id))[0].status).toBe('OVERDUE');
    now = at('2026-12-14T23:00:00Z'); // 4 days overdue
    expect((await runBillingJobNow(t.ctx)).suspended).not.toContain(u.id);
    expect((await signIn(u.email, u.password)).statusCode).toBe(200);

    now = at('2026-12-15T00:30:00Z'); // 5 days overdue
    expect((await runBillingJobNow(t.ctx)).suspended).toContain(u.id);
    expect(await attrsOf(u.id)).toMatchObject({ 'rastro.suspended': true });
    const refused = await signIn(u.email, u.password);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'ACCOUNT_IS_SUSPENDED_TRUST', trustAvailable: true });
    expect((await trustUnlock(u.email, u.password)).statusCode).toBe(200);

    // Paid in cash: the automatic suspension ends at once and the trust unlock is available again.
    expectStatus(await api(t.app, t.admin, 'POST', `/rastro/invoices/${inv.id}/cash`), 200);
    const attrs = await attrsOf(u.id);
    for (const k of ['rastro.suspended', 'rastro.trustUntil', 'rastro.trustUsed'])
      expect(attrs).not.toHaveProperty(k);
    expect((await signIn(u.email, u.password)).statusCode).toBe(200);
    expect((await auditOf(u.id)).map((a) => a.attributes.billing)).toEqual(
      expect.arrayContaining(['autoSuspend', 'trustUnlock', 'autoReactivate']),
    );
  });

  it('a user cannot lift its own suspension or change its billing by editing its attributes', async () => {
    const u = await createUser(t, {
      attributes: { 'rastro.billing': true, 'rastro.billingPrice': 80, lang: 'es' },
    });
    const basic = `Basic ${Buffer.from(`${u.email}:${u.password}`).toString('base64')}`;
    const self = (
      await t.app.inject({ method: 'GET', url: `/api/users/${u.id}`, headers: { authorization: basic } })
    ).json<Record<string, unknown>>();
    const put = (attributes: Record<string, unknown>) =>
      t.app.inject({
        method: 'PUT',
        url: `/api/users/${u.id}`,
        headers: { authorization: basic },
        payload: { ...self, attributes },
      });
    // before a suspension: the user's own edit keeps the stored billing attributes
    expect(
      (await put({ lang: 'en-US', 'rastro.billingPrice': 1, 'rastro.trustUnlock': true })).statusCode,
    ).toBe(200);
    expect(await attrsOf(u.id)).toEqual({ lang: 'en-US', 'rastro.billing': true, 'rastro.billingPrice': 80 });
    // suspended: every call but the session, the trust unlock and its invoices is refused, edits included
    expect((await suspend(u.id)).statusCode).toBe(204);
    const res = await put({ lang: 'es', 'rastro.billing': true, 'rastro.billingPrice': 80 });
    expect(res.statusCode).toBe(403);
    expect(await attrsOf(u.id)).toEqual({
      lang: 'en-US',
      'rastro.billing': true,
      'rastro.billingPrice': 80,
      'rastro.suspended': true,
    });
    expect((await signIn(u.email, u.password)).statusCode).toBe(403);
  });

  it('a TOTP user unlocks with its one-time code', async () => {
    const totpKey = generateTotpKey();
    const email = `totp-${Date.now()}@example.com`;
    const created = expectStatus<{ id: number }>(
      await api(t.app, t.admin, 'POST', '/api/users', {
        name: 'TOTP',
        email,
        password: 'secret-pass',
        totpKey,
        attributes: { 'rastro.billing': true, 'rastro.trustUnlock': true },
      }),
      200,
    );
    expect((await suspend(created.id)).statusCode).toBe(204);
    expect((await trustUnlock(email, 'secret-pass')).body).toBe(
      'IllegalArgumentException: code: the one-time password code is required',
    );
    const ok = await t.app.inject({
      method: 'POST',
      url: '/rastro/billing/trust-unlock',
      payload: { email, password: 'secret-pass', code: totpCode(totpKey) },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ trustUntil: '2026-12-18T10:00:00.000Z' });
  });

  it('a manual suspension is not lifted by the job when nothing is overdue', async () => {
    const u = await createUser(t, { attributes: { 'rastro.billing': true } });
    expect((await suspend(u.id)).statusCode).toBe(204);
    expect((await runBillingJobNow(t.ctx)).lifted).not.toContain(u.id);
    expect((await signIn(u.email, u.password)).statusCode).toBe(403);
  });

  it('with enableBilling off nothing is enforced', async () => {
    const u = await createUser(t, {
      attributes: {
        'rastro.billing': true,
        'rastro.billingPrice': 10,
        'rastro.billingDueDay': 20,
        'rastro.trustUnlock': true,
      },
    });
    expect((await suspend(u.id)).statusCode).toBe(204);
    await setBilling(false);
    expect((await signIn(u.email, u.password)).statusCode).toBe(200);
    const cookie = await login(t.app, u.email, u.password);
    expect((await api(t.app, cookie, 'GET', '/api/session')).statusCode).toBe(200);
    expect(await runBillingJobNow(t.ctx)).toEqual({ created: [], overdue: 0, suspended: [], lifted: [] });
    expect(await invoicesOf(u.id)).toHaveLength(0);

    expect((await suspend(u.id)).body).toBe('IllegalArgumentException: Billing is not enabled');
    expect((await trustUnlock(u.email, u.password)).body).toBe(
      'IllegalArgumentException: Billing is not enabled',
    );
    expect((await api(t.app, t.admin, 'GET', '/rastro/invoices')).body).toBe(
      'IllegalArgumentException: Billing is not enabled',
    );
    const create = await api(t.app, t.admin, 'POST', '/rastro/invoices', {
      userId: u.id,
      value: 5,
      dueDate: '2026-12-20',
    });
    expect(create.body).toBe('IllegalArgumentException: Billing is not enabled');
    // Integrations can be configured before billing is enabled; reactivation always works.
    expect((await api(t.app, t.admin, 'GET', '/rastro/integrations')).statusCode).toBe(200);
    expect((await reactivate(u.id)).statusCode).toBe(204);
  });
});

describe('billing job with Asaas', () => {
  it('charges the monthly invoice at the provider with the user fine and interest; the paid webhook lifts the suspension', async () => {
    const seen: { url: string; body: Record<string, unknown> }[] = [];
    const fake = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        seen.push({
          url: `${req.method} ${req.url}`,
          body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
        });
        res.setHeader('content-type', 'application/json');
        if (req.url === '/v3/customers') res.end(JSON.stringify({ id: 'cus_9' }));
        else
          res.end(
            JSON.stringify({ id: 'pay_77', status: 'PENDING', invoiceUrl: 'https://asaas.test/i/pay_77' }),
          );
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    const t = await makeTestApp();
    try {
      let now = at('2026-12-01T08:00:00Z');
      setBillingClock(t.ctx, () => now);
      configureBilling(t.ctx, {
        asaasBaseUrl: `http://127.0.0.1:${(fake.address() as AddressInfo).port}/v3`,
      });
      await update(t.ctx.store.sql, 'server', { attributes: '{"rastro.enableBilling":true}' });
      expectStatus(
        await api(t.app, t.admin, 'POST', '/rastro/integrations/payment', {
          key: 'payment',
          provider: 'asaas',
          sandbox: true,
          apiKey: '$aact_job_key',
          webhookToken: 'job-hook',
        }),
        200,
      );
      const u = await createUser(t, {
        name: 'Cliente Mensal',
        attributes: {
          'rastro.taxId': '12345678909',
          'rastro.billing': true,
          'rastro.billingPrice': 150,
          'rastro.billingDueDay': 5,
          'rastro.billingFine': 2,
          'rastro.billingFineMode': 'percentage',
          'rastro.billingInterest': 1,
          'rastro.autoSuspend': true,
          'rastro.autoSuspendDays': 3,
        },
      });
      expect((await runBillingJobNow(t.ctx)).created).toEqual([u.id]);
      expect(seen.map((x) => x.url)).toEqual(['POST /v3/customers', 'POST /v3/payments']);
      expect(seen[1].body).toMatchObject({
        customer: 'cus_9',
        value: 150,
        dueDate: '2026-12-05',
        fine: { value: 2, type: 'PERCENTAGE' },
        interest: { value: 1 },
      });
      const [inv] = expectStatus<Invoice[]>(await api(t.app, u.cookie, 'GET', '/rastro/invoices'), 200);
      expect(inv).toMatchObject({
        status: 'PENDING',
        externalId: 'pay_77',
        invoiceUrl: 'https://asaas.test/i/pay_77',
      });

      now = at('2026-12-08T08:00:00Z'); // 3 days overdue
      expect((await runBillingJobNow(t.ctx)).suspended).toEqual([u.id]);
      const refused = await t.app.inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email: u.email, password: u.password }).toString(),
      });
      expect(refused.json()).toMatchObject({
        error: 'ACCOUNT_IS_SUSPENDED',
        invoices: [{ id: inv.id, status: 'OVERDUE', invoiceUrl: 'https://asaas.test/i/pay_77' }],
      });

      const hook = await t.app.inject({
        method: 'POST',
        url: '/rastro/billing/webhook',
        headers: { 'asaas-access-token': 'job-hook' },
        payload: { event: 'PAYMENT_RECEIVED', payment: { id: 'pay_77', paymentDate: '2026-12-08' } },
      });
      expect(hook.json()).toEqual({ updated: true, status: 'RECEIVED' });
      expect(await login(t.app, u.email, u.password)).toMatch(/^JSESSIONID=/);
    } finally {
      await t.close();
      await new Promise((r) => fake.close(r));
    }
  });
});
