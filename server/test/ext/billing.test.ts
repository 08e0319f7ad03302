// Billing (server/src/ext/billing): integrations with masked secrets, invoices charged through a local fake
// Asaas server (POST /customers, POST /payments, DELETE /payments/{id}), cash and cancel, the webhook.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Integration, Invoice } from '@rastro/domain';
import { configureBilling, statusOfEvent } from '../../src/ext/billing/index.ts';
import {
  api,
  createUser,
  expectStatus,
  makeTestApp,
  startGatewayPair,
  type CreatedUser,
  type TestApp,
} from '../helpers/index.ts';
import { update } from '../support/testSql.ts';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown> | null;
}

/** A fake Asaas API: records requests; `fail` makes POST /payments answer 400 like Asaas does. */
function fakeAsaas() {
  const seen: Seen[] = [];
  let n = 0;
  const state = { fail: false };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      if (req.method === 'POST' && req.url === '/v3/customers') {
        res.end(JSON.stringify({ object: 'customer', id: `cus_${++n}` }));
      } else if (req.method === 'POST' && req.url === '/v3/payments') {
        if (state.fail) {
          res.statusCode = 400;
          res.end(
            JSON.stringify({ errors: [{ code: 'invalid_value', description: 'O valor é inválido.' }] }),
          );
          return;
        }
        const id = `pay_${++n}`;
        res.end(
          JSON.stringify({
            object: 'payment',
            id,
            status: 'PENDING',
            invoiceUrl: `https://www.asaas.com/i/${id}`,
          }),
        );
      } else if (req.method === 'DELETE' && req.url?.startsWith('/v3/payments/')) {
        res.end(JSON.stringify({ deleted: true, id: req.url.slice('/v3/payments/'.length) }));
      } else {
        res.statusCode = 404;
        res.end(JSON.stringify({ errors: [{ code: 'not_found', description: 'not found' }] }));
      }
    });
  });
  return { server, seen, state };
}

const PAYMENT = {
  key: 'payment',
  provider: 'asaas',
  sandbox: true,
  apiKey: '$aact_test_key_1234',
  webhookToken: 'hook-secret-5678',
};

describe('billing (Plus, embedded)', () => {
  let t: TestApp;
  let user: CreatedUser;
  const fake = fakeAsaas();

  beforeAll(async () => {
    await new Promise<void>((r) => fake.server.listen(0, '127.0.0.1', r));
    t = await makeTestApp();
    configureBilling(t.ctx, {
      asaasBaseUrl: `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v3`,
    });
    user = await createUser(t, { name: 'Cliente Um', attributes: { 'rastro.taxId': '123.456.789-09' } });
    await update(t.ctx.store.sql, 'server', { attributes: '{"rastro.enableBilling":true}' });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => fake.server.close(r));
  });
  beforeEach(() => {
    fake.seen.length = 0;
    fake.state.fail = false;
  });

  const setPayment = (body: Record<string, unknown>) =>
    api(t.app, t.admin, 'POST', '/rastro/integrations/payment', body);
  const newInvoice = (body: Record<string, unknown>) => api(t.app, t.admin, 'POST', '/rastro/invoices', body);

  it('without a provider an invoice is TARKAN_GENERATED, without a payment link, and nothing is called', async () => {
    const inv = expectStatus<Invoice>(
      await newInvoice({ userId: user.id, value: 89.9, dueDate: '2026-12-10', description: 'Mensalidade' }),
      200,
    );
    expect(inv).toMatchObject({
      userId: user.id,
      value: 89.9,
      dueDate: '2026-12-10',
      status: 'TARKAN_GENERATED',
    });
    expect(inv.invoiceUrl).toBeNull();
    expect(inv.paidDate).toBeNull();
    expect(fake.seen).toHaveLength(0);
    const mine = expectStatus<Invoice[]>(await api(t.app, user.cookie, 'GET', '/rastro/invoices'), 200);
    expect(mine.map((i) => i.id)).toContain(inv.id);
  });

  it('stores integrations and answers them with secrets masked to the last 4 characters', async () => {
    const list = expectStatus<Integration[]>(await setPayment(PAYMENT), 200);
    expect(list[0]).toEqual({ ...PAYMENT, apiKey: '••••1234', webhookToken: '••••5678' });
    expect(list[1].key).toBe('invoice');
    // A masked secret sent back unchanged keeps the stored one (the webhook token still works below).
    expectStatus(await setPayment({ ...list[0], sandbox: true }), 200);
    const invoice = {
      key: 'invoice',
      firstDueDay: 10,
      description: 'Rastreamento',
      fine: 2,
      fineMode: 'PERCENTAGE',
      interest: 1,
      discount: 0,
      discountMode: 'FIXED',
      discountDays: 0,
    };
    const after = expectStatus<Integration[]>(
      await api(t.app, t.admin, 'POST', '/rastro/integrations/invoice', invoice),
      200,
    );
    expect(after[1]).toEqual(invoice);
    const read = expectStatus<Integration[]>(await api(t.app, t.admin, 'GET', '/rastro/integrations'), 200);
    expect(read[0]).toMatchObject({ apiKey: '••••1234', webhookToken: '••••5678' });
    expect(JSON.stringify(read)).not.toContain('$aact_test_key');
  });

  it('refuses bad integration input with clear 400 texts', async () => {
    const bad = await api(t.app, t.admin, 'POST', '/rastro/integrations/email', { key: 'email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('unknown integration key (expected payment or invoice)');
    const day = await api(t.app, t.admin, 'POST', '/rastro/integrations/invoice', { firstDueDay: 40 });
    expect(day.statusCode).toBe(400);
    expect(day.body).toContain('firstDueDay');
    const prov = await setPayment({ ...PAYMENT, provider: 'stripe' });
    expect(prov.body).toBe('IllegalArgumentException: provider: provider must be none or asaas');
  });

  it('creates the charge at Asaas: customer, then POST /payments with access_token and the right body', async () => {
    const inv = expectStatus<Invoice>(
      await newInvoice({ userId: user.id, value: 129.5, dueDate: '2026-12-10', description: 'Dezembro' }),
      200,
    );
    expect(fake.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /v3/customers', 'POST /v3/payments']);
    for (const s of fake.seen) expect(s.headers.access_token).toBe('$aact_test_key_1234');
    expect(fake.seen[0].body).toMatchObject({
      name: 'Cliente Um',
      cpfCnpj: '12345678909',
      externalReference: String(user.id),
    });
    expect(fake.seen[1].body).toEqual({
      customer: 'cus_1',
      billingType: 'UNDEFINED',
      value: 129.5,
      dueDate: '2026-12-10',
      description: 'Dezembro',
      externalReference: String(inv.id),
      fine: { value: 2, type: 'PERCENTAGE' },
      interest: { value: 1 },
    });
    expect(inv).toMatchObject({
      status: 'PENDING',
      externalId: 'pay_2',
      invoiceUrl: 'https://www.asaas.com/i/pay_2',
    });

    // The customer is created once per user.
    fake.seen.length = 0;
    expectStatus(await newInvoice({ userId: user.id, value: 10, dueDate: '2027-01-10' }), 200);
    expect(fake.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['POST /v3/payments']);
    expect(fake.seen[0].body).toMatchObject({ customer: 'cus_1', description: 'Rastreamento' });
  });

  it('passes the provider refusal on as a 400 and keeps no invoice', async () => {
    const before = expectStatus<Invoice[]>(
      await api(t.app, t.admin, 'GET', `/rastro/invoices?userId=${user.id}`),
      200,
    );
    fake.state.fail = true;
    const res = await newInvoice({ userId: user.id, value: 10, dueDate: '2027-02-10' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('IllegalArgumentException: Payment provider refused: O valor é inválido.');
    const after = expectStatus<Invoice[]>(
      await api(t.app, t.admin, 'GET', `/rastro/invoices?userId=${user.id}`),
      200,
    );
    expect(after).toHaveLength(before.length);
  });

  it('refuses a user without a tax id when a provider is configured', async () => {
    const other = await createUser(t);
    const res = await newInvoice({ userId: other.id, value: 10, dueDate: '2027-02-10' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('the user has no tax id (rastro.taxId)');
  });

  it('validates invoices: value ≤ 0, bad date, unknown user', async () => {
    const zero = await newInvoice({ userId: user.id, value: 0, dueDate: '2026-12-10' });
    expect(zero.body).toBe('IllegalArgumentException: value: value must be greater than 0');
    const date = await newInvoice({ userId: user.id, value: 5, dueDate: '2026-02-30' });
    expect(date.body).toBe('IllegalArgumentException: dueDate: dueDate is not a valid calendar date');
    const nobody = await newInvoice({ userId: 999999, value: 5, dueDate: '2026-12-10' });
    expect(nobody.body).toBe('IllegalArgumentException: userId: user 999999 not found');
    const notJson = await api(t.app, t.admin, 'POST', '/rastro/invoices', [1]);
    expect(notJson.body).toBe('IllegalArgumentException: expected a JSON object body');
  });

  it('marks an open invoice received in cash with today as paid date; then it can no longer change', async () => {
    const inv = expectStatus<Invoice>(
      await newInvoice({ userId: user.id, value: 50, dueDate: '2026-12-15' }),
      200,
    );
    const paid = expectStatus<Invoice>(
      await api(t.app, t.admin, 'POST', `/rastro/invoices/${inv.id}/cash`),
      200,
    );
    expect(paid.status).toBe('RECEIVED_IN_CASH');
    expect(paid.paidDate).toBe(new Date().toISOString().slice(0, 10));
    const again = await api(t.app, t.admin, 'POST', `/rastro/invoices/${inv.id}/cancel`);
    expect(again.statusCode).toBe(400);
    expect(again.body).toBe(
      'IllegalArgumentException: the invoice is RECEIVED_IN_CASH, only open invoices can be changed',
    );
    expect((await api(t.app, t.admin, 'POST', '/rastro/invoices/987654/cash')).statusCode).toBe(404);
    expect((await api(t.app, t.admin, 'POST', '/rastro/invoices/abc/cash')).statusCode).toBe(400);
  });

  it('cancels an open invoice and deletes the provider charge', async () => {
    const inv = expectStatus<Invoice>(
      await newInvoice({ userId: user.id, value: 70, dueDate: '2026-12-20' }),
      200,
    );
    fake.seen.length = 0;
    const canceled = expectStatus<Invoice>(
      await api(t.app, t.admin, 'POST', `/rastro/invoices/${inv.id}/cancel`),
      200,
    );
    expect(canceled.status).toBe('CANCELED');
    expect(fake.seen.map((s) => `${s.method} ${s.url}`)).toEqual([`DELETE /v3/payments/${inv.externalId}`]);
    expect(fake.seen[0].headers.access_token).toBe('$aact_test_key_1234');
  });

  it('webhook: a wrong token is 401; the right one updates the status and paid date', async () => {
    const inv = expectStatus<Invoice>(
      await newInvoice({ userId: user.id, value: 99, dueDate: '2026-12-25' }),
      200,
    );
    const hook = (token: string | null, body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/rastro/billing/webhook',
        headers: token ? { 'asaas-access-token': token } : {},
        payload: body as Record<string, unknown>,
      });
    const event = {
      event: 'PAYMENT_RECEIVED',
      payment: { id: inv.externalId, status: 'RECEIVED', paymentDate: '2026-12-20' },
    };
    expect((await hook('wrong', event)).statusCode).toBe(401);
    expect((await hook(null, event)).statusCode).toBe(401);
    expect((await hook('••••5678', event)).statusCode).toBe(401);
    expect(expectStatus(await hook('hook-secret-5678', event), 200)).toEqual({
      updated: true,
      status: 'RECEIVED',
    });
    const mine = expectStatus<Invoice[]>(await api(t.app, user.cookie, 'GET', '/rastro/invoices'), 200);
    expect(mine.find((i) => i.id === inv.id)).toMatchObject({ status: 'RECEIVED', paidDate: '2026-12-20' });

    const overdue = { event: 'PAYMENT_OVERDUE', payment: { id: inv.externalId, status: 'OVERDUE' } };
    expect(expectStatus(await hook('hook-secret-5678', overdue), 200)).toEqual({
      updated: true,
      status: 'OVERDUE',
    });
    const unknown = { event: 'PAYMENT_RECEIVED', payment: { id: 'pay_not_ours' } };
    expect(expectStatus(await hook('hook-secret-5678', unknown), 200)).toEqual({ updated: false });
    const bad = await hook('hook-secret-5678', { event: 'PAYMENT_RECEIVED' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('payment');
  });

  it('maps the Asaas events to invoice statuses', () => {
    expect(statusOfEvent('PAYMENT_CONFIRMED', 'CONFIRMED')).toBe('CONFIRMED');
    expect(statusOfEvent('PAYMENT_DELETED', 'PENDING')).toBe('CANCELED');
    expect(statusOfEvent('PAYMENT_REFUNDED', 'REFUNDED')).toBe('CANCELED');
    expect(statusOfEvent('PAYMENT_UPDATED', 'PENDING')).toBe('PENDING');
    expect(statusOfEvent('PAYMENT_CHECKOUT_VIEWED', undefined)).toBeNull();
  });

  it('non-admins see only their own invoices and may not manage billing', async () => {
    const other = await api(t.app, user.cookie, 'GET', '/rastro/invoices?userId=1');
    expect(other.body).toBe('SecurityException: Administrator access required');
    for (const [method, url] of [
      ['GET', '/rastro/integrations'],
      ['POST', '/rastro/integrations/payment'],
      ['POST', '/rastro/invoices'],
      ['POST', '/rastro/invoices/1/cash'],
      ['POST', '/rastro/invoices/1/cancel'],
    ] as const) {
      const res = await api(t.app, user.cookie, method, url, method === 'POST' ? {} : undefined);
      expect(res.statusCode, url).toBe(400);
      expect(res.body, url).toBe('SecurityException: Administrator access required');
    }
    expect((await api(t.app, null, 'GET', '/rastro/invoices')).statusCode).toBe(401);
    expect((await api(t.app, t.admin, 'GET', '/rastro/invoices?userId=x')).body).toContain('userId');
  });
});

describe('billing on a Basic server', () => {
  it('is refused', async () => {
    const basic = await makeTestApp({ edition: 'basic' });
    try {
      for (const url of ['/rastro/integrations', '/rastro/invoices']) {
        const res = await api(basic.app, basic.admin, 'GET', url);
        expect(res.statusCode).toBe(400);
        expect(res.body).toBe('SecurityException: Billing needs a Plus server');
      }
    } finally {
      await basic.close();
    }
  });
});

describe('billing in gateway mode', () => {
  it('bills an upstream user (found with the admin credentials) and lists it to that user', async () => {
    const pair = await startGatewayPair('rastro-gw-billing-');
    try {
      const client = await createUser(pair.upstream, { name: 'Upstream Client' });
      const call = (cookie: string, method: string, path: string, body?: unknown) =>
        fetch(`${pair.url}/${pair.ns}${path}`, {
          method,
          headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        });
      const created = await call(pair.upstream.admin, 'POST', '/invoices', {
        userId: client.id,
        value: 30,
        dueDate: '2027-03-10',
      });
      expect(created.status).toBe(200);
      expect(((await created.json()) as Invoice).status).toBe('TARKAN_GENERATED');
      const missing = await call(pair.upstream.admin, 'POST', '/invoices', {
        userId: 424242,
        value: 30,
        dueDate: '2027-03-10',
      });
      expect(await missing.text()).toBe('IllegalArgumentException: userId: user 424242 not found');
      const mine = (await (await call(client.cookie, 'GET', '/invoices')).json()) as Invoice[];
      expect(mine.map((i) => [i.userId, i.value])).toEqual([[client.id, 30]]);
      const denied = await call(client.cookie, 'POST', '/invoices', {
        userId: client.id,
        value: 1,
        dueDate: '2027-03-10',
      });
      expect(await denied.text()).toBe('SecurityException: Administrator access required');
    } finally {
      await pair.close();
    }
  });
});
