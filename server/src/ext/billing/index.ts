// Billing (SPEC §2 Integrations / Billing management / My Invoices, §3 Integration and Invoice, §4 Invoice,
// §7 client A), Plus edition only; documented in docs/billing.md.
//   GET  /{ns}/integrations               (admin) [payment, invoice], secrets masked to their last 4 characters
//   POST /{ns}/integrations/{key}         (admin) body the integration object; answers the whole list
//   GET  /{ns}/invoices[?userId]          the caller's own invoices; administrators may ask for any user
//   POST /{ns}/invoices                   (admin) {userId, value, dueDate, description}: charged at the provider
//   POST /{ns}/invoices/{id}/cash         (admin) open invoice → RECEIVED_IN_CASH with today's paidDate
//   POST /{ns}/invoices/{id}/cancel       (admin) open invoice → CANCELED (the provider's charge is deleted)
//   POST /{ns}/billing/webhook            the provider's events, checked against the stored webhook token
// Invoices and integrations live in the one SQLite store (tables invoices, integrations, billing_customers).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  DEFAULT_INVOICE_INTEGRATION,
  DEFAULT_PAYMENT_INTEGRATION,
  integrationKeySchema,
  integrationSchema,
  invoiceCreateSchema,
  invoiceIntegrationSchema,
  isInvoiceOpen,
  isInvoiceStatus,
  isMaskedSecret,
  maskSecret,
  nsKey,
  paymentIntegrationSchema,
  type Integration,
  type Invoice,
  type InvoiceIntegration,
  type InvoiceStatus,
  type PaymentIntegration,
} from '@rastro/domain';
import type { AppContext } from '../../context.ts';
import { ApiError, badRequest, denied, notFound, unauthorized } from '../../errors.ts';
import { upstreamOf } from '../../gateway/upstream.ts';
import { credentials } from '../../gateway/identity.ts';
import { edge, edgeValue, idParams, noBody } from '../../edge.ts';
import { jsonObject, parse } from '../../traccar/http.ts';
import { parseAttributes } from '../../traccar/model.ts';
import { requireCaller, type Caller } from '../caller.ts';
import { providerFor, statusOfEvent, type ChargeCustomer } from './provider.ts';
import { isBillingOn, protectBillingAttributes, registerAccounts, suspensionRefusal } from './accounts.ts';
import { setAccountPolicy } from '../../traccar/accountPolicy.ts';
import {
  billingCustomerId,
  deleteInvoice,
  findInvoice,
  insertInvoice,
  integrationConfig,
  invoiceByExternalId,
  invoicesOfUser,
  saveBillingCustomer,
  saveIntegrationConfig,
  setInvoiceCharge,
  setInvoiceStatus,
  type StoredInvoice,
} from '../../db/repos/billing.ts';
import { findUserByIdAsync } from '../../db/repos/users.ts';
import { reconcileAccount, startBillingJob } from './job.ts';

export * from './provider.ts';
export * from './accounts.ts';
export * from './job.ts';

/** Per-app options (tests point the Asaas client at a local fake server). */
export interface BillingOptions {
  asaasBaseUrl?: string;
}
const options = new WeakMap<AppContext, BillingOptions>();
export function configureBilling(ctx: AppContext, o: BillingOptions): void {
  options.set(ctx, o);
}

/** The user attribute holding the tax id (CPF/CNPJ) sent to the payment provider. */
export const taxIdKey = (ns: string) => nsKey(ns, 'taxId');

// ---- integrations ----------------------------------------------------------------------------------------

async function readIntegration<T extends Integration>(
  ctx: AppContext,
  key: T['key'],
  def: T,
  schema: z.ZodType<T>,
): Promise<T> {
  const config = await integrationConfig(ctx.store.sql, key);
  if (config === undefined) return def;
  try {
    const r = schema.safeParse({ ...def, ...(JSON.parse(config) as object), key });
    return r.success ? r.data : def;
  } catch {
    return def;
  }
}

export const paymentIntegration = (ctx: AppContext): Promise<PaymentIntegration> =>
  readIntegration(ctx, 'payment', DEFAULT_PAYMENT_INTEGRATION, paymentIntegrationSchema);
export const invoiceIntegration = (ctx: AppContext): Promise<InvoiceIntegration> =>
  readIntegration(ctx, 'invoice', DEFAULT_INVOICE_INTEGRATION, invoiceIntegrationSchema);

async function integrationList(ctx: AppContext): Promise<Integration[]> {
  const [p, invoice] = await Promise.all([paymentIntegration(ctx), invoiceIntegration(ctx)]);
  return [{ ...p, apiKey: maskSecret(p.apiKey), webhookToken: maskSecret(p.webhookToken) }, invoice];
}

async function saveIntegration(ctx: AppContext, key: string, body: Record<string, unknown>): Promise<void> {
  const k = parse(integrationKeySchema, key);
  const value = parse(integrationSchema(k), { ...body, key: k }) as Integration;
  if (value.key === 'payment') {
    const stored = await paymentIntegration(ctx);
    // A masked secret sent back unchanged keeps the stored one.
    if (isMaskedSecret(value.apiKey)) value.apiKey = stored.apiKey;
    if (isMaskedSecret(value.webhookToken)) value.webhookToken = stored.webhookToken;
    if (value.provider === 'asaas' && !value.apiKey)
      throw badRequest('apiKey: the Asaas API key is required');
  }
  await saveIntegrationConfig(ctx.store.sql, k, JSON.stringify(value));
}

// ---- invoices --------------------------------------------------------------------------------------------

const toInvoice = (r: StoredInvoice): Invoice => ({
  id: r.id,
  userId: r.userId,
  dueDate: r.dueDate,
  value: r.value,
  status: isInvoiceStatus(r.status) ? r.status : 'PENDING',
  paidDate: r.paidDate,
  description: r.description,
  invoiceUrl: r.invoiceUrl,
  externalId: r.externalId,
  createdAt: r.createdAt,
});

async function invoiceRow(ctx: AppContext, id: number): Promise<StoredInvoice> {
  const r = await findInvoice(ctx.store.sql, id);
  if (!r) throw notFound('Invoice not found');
  return r;
}

const today = () => new Date().toISOString().slice(0, 10);

interface BillingUser {
  id: number;
  name: string;
  email: string;
  attributes: Record<string, unknown>;
}

/** The user an invoice is for: the store's row, or upstream `GET /api/users` asked as the admin (gateway). */
async function findUser(ctx: AppContext, req: FastifyRequest | null, id: number): Promise<BillingUser> {
  if (ctx.config.mode !== 'gateway' || !req) {
    const r = await findUserByIdAsync(ctx.store.sql, id);
    if (!r) throw badRequest(`userId: user ${id} not found`);
    return { id: r.id, name: r.name, email: r.email, attributes: parseAttributes(r.attributes) };
  }
  const { origin, basePath } = upstreamOf(ctx.config.traccarUrl!);
  let list: unknown;
  try {
    const res = await fetch(`${origin}${basePath}/api/users`, {
      headers: { ...(credentials(req) ?? {}), accept: 'application/json' },
      signal: AbortSignal.timeout(20_000),
    });
    if (res.status === 401) throw unauthorized();
    list = res.ok ? await res.json() : null;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(502, 'Traccar server unreachable', 'WebApplicationException');
  }
  const u = Array.isArray(list)
    ? (list as Array<Partial<BillingUser> | null>).find((x) => x?.id === id)
    : undefined;
  if (!u) throw badRequest(`userId: user ${id} not found`);
  return { id, name: String(u.name ?? ''), email: String(u.email ?? ''), attributes: u.attributes ?? {} };
}

/**
 * Creates an invoice (POST /{ns}/invoices, and the billing job with `req` null and the user's own fine,
 * interest and discount as `overrides`), charged at the configured provider.
 */
export async function createInvoice(
  ctx: AppContext,
  req: FastifyRequest | null,
  body: Record<string, unknown>,
  overrides: Partial<InvoiceIntegration> = {},
): Promise<Invoice> {
  const input = parse(invoiceCreateSchema, body);
  const user = await findUser(ctx, req, input.userId);
  const defaults = { ...(await invoiceIntegration(ctx)), ...overrides };
  const description = input.description || defaults.description;
  const provider = providerFor(await paymentIntegration(ctx), defaults, options.get(ctx)?.asaasBaseUrl);
  const db = ctx.store.sql;
  let customer: ChargeCustomer | null = null;
  if (provider) {
    const taxId = String(user.attributes[taxIdKey(ctx.config.ns)] ?? '').replace(/\D/g, '');
    if (!taxId)
      throw badRequest(
        `userId: the user has no tax id (${taxIdKey(ctx.config.ns)}) for the payment provider`,
      );
    customer = {
      userId: user.id,
      name: user.name,
      email: user.email,
      taxId,
      externalId: (await billingCustomerId(db, user.id, provider.name)) ?? null,
    };
  }
  const id = await insertInvoice(db, {
    userId: user.id,
    dueDate: input.dueDate,
    value: input.value,
    status: 'TARKAN_GENERATED',
    description,
    createdAt: new Date().toISOString(),
  });
  if (provider && customer) {
    try {
      const charge = await provider.createCharge(customer, {
        id,
        value: input.value,
        dueDate: input.dueDate,
        description,
      });
      await saveBillingCustomer(db, user.id, provider.name, charge.customerId);
      await setInvoiceCharge(db, id, charge);
    } catch (err) {
      await deleteInvoice(db, id); // not charged: no invoice
      throw err;
    }
  }
  return toInvoice(await invoiceRow(ctx, id));
}

async function settleInvoice(ctx: AppContext, id: number, action: 'cash' | 'cancel'): Promise<Invoice> {
  const row = await invoiceRow(ctx, id);
  const status = isInvoiceStatus(row.status) ? row.status : 'PENDING';
  if (!isInvoiceOpen(status)) throw badRequest(`the invoice is ${status}, only open invoices can be changed`);
  if (action === 'cancel' && row.externalId) {
    const defaults = await invoiceIntegration(ctx);
    const provider = providerFor(await paymentIntegration(ctx), defaults, options.get(ctx)?.asaasBaseUrl);
    if (provider) await provider.cancelCharge(row.externalId);
  }
  // Cash received is recorded locally (the provider's charge, if any, stays to be reconciled there).
  const next: InvoiceStatus = action === 'cash' ? 'RECEIVED_IN_CASH' : 'CANCELED';
  await setInvoiceStatus(ctx.store.sql, id, next, action === 'cash' ? today() : null);
  await reconcileAccount(ctx, row.userId); // a paid automatic suspension is lifted at once
  return toInvoice(await invoiceRow(ctx, id));
}

// ---- webhook ---------------------------------------------------------------------------------------------

const webhookBody = z.object({
  event: z.string({ error: 'event is required' }).min(1, 'event is required').max(100),
  payment: z
    .object({
      id: z.string({ error: 'payment.id is required' }).min(1, 'payment.id is required').max(100),
      status: z.string().optional(),
      paymentDate: z.string().nullish(),
      clientPaymentDate: z.string().nullish(),
      confirmedDate: z.string().nullish(),
    })
    .loose(),
});

async function applyWebhook(
  ctx: AppContext,
  req: FastifyRequest,
): Promise<{ updated: boolean; status?: InvoiceStatus }> {
  const stored = (await paymentIntegration(ctx)).webhookToken;
  const given = req.headers['asaas-access-token'];
  if (!stored || typeof given !== 'string' || given !== stored) throw unauthorized();
  const { event, payment } = parse(webhookBody, jsonObject(req));
  const status = statusOfEvent(event, payment.status);
  if (!status) return { updated: false };
  const row = await invoiceByExternalId(ctx.store.sql, payment.id);
  if (!row) return { updated: false }; // not ours (or already deleted): acknowledged so the queue goes on
  const paid = ['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH', 'DUNNING_RECEIVED'].includes(status);
  const date = payment.paymentDate ?? payment.clientPaymentDate ?? payment.confirmedDate ?? today();
  await setInvoiceStatus(ctx.store.sql, row.id, status, paid ? date.slice(0, 10) : null);
  await reconcileAccount(ctx, row.userId);
  return { updated: true, status };
}

// ---- routes ----------------------------------------------------------------------------------------------

const listQuery = z.object({
  userId: z.coerce
    .number({ error: 'userId must be a number' })
    .int('userId must be a whole number')
    .positive('userId must be positive')
    .optional(),
});

const keyParams = z.object({ key: z.string().max(64) });
const objectBody = z.record(z.string(), z.unknown());

export async function registerBilling(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const ns = ctx.config.ns;
  // the Traccar layer's sign-in and user edits consult billing through this policy (traccar/accountPolicy.ts)
  setAccountPolicy(ctx, { loginRefusal: suspensionRefusal, protectAttributes: protectBillingAttributes });
  // Integrations (and the webhook) work while `{ns}.enableBilling` is off, so administrators can configure
  // the provider first; invoices need billing on (isBillingOn; gateway mode does not check it).
  const plusCaller = async (req: FastifyRequest, admin: boolean, billing = true): Promise<Caller> => {
    const caller = await requireCaller(ctx, req);
    if (ctx.config.edition !== 'plus') throw denied('Billing needs a Plus server');
    if (admin && !caller.administrator) throw denied('Administrator access required');
    if (billing && !(await isBillingOn(ctx))) throw badRequest('Billing is not enabled');
    return caller;
  };

  // signed in: plusCaller answers the edition, the administrator and the billing switch in Billing's order
  app.get(`/${ns}/integrations`, edge({ need: 'signedIn' }), async (req) => {
    await plusCaller(req, true, false);
    return integrationList(ctx);
  });
  const integrationEdge = edge({ params: keyParams, body: objectBody, need: 'signedIn' });
  app.post(`/${ns}/integrations/:key`, integrationEdge, async (req) => {
    await plusCaller(req, true, false);
    await saveIntegration(ctx, edgeValue(keyParams, req.params).key, edgeValue(objectBody, req.body));
    return integrationList(ctx);
  });

  app.get(`/${ns}/invoices`, edge({ query: listQuery, need: 'signedIn' }), async (req) => {
    const caller = await plusCaller(req, false);
    const q = edgeValue(listQuery, req.query);
    const userId = q.userId ?? caller.userId;
    if (userId !== caller.userId && !caller.administrator) throw denied('Administrator access required');
    return (await invoicesOfUser(ctx.store.sql, userId)).map(toInvoice);
  });
  app.post(`/${ns}/invoices`, edge({ body: objectBody, need: 'signedIn' }), async (req) => {
    await plusCaller(req, true);
    return createInvoice(ctx, req, edgeValue(objectBody, req.body));
  });
  const settleEdge = edge({ params: idParams, body: noBody, need: 'signedIn' });
  app.post(`/${ns}/invoices/:id/cash`, settleEdge, async (req) => {
    await plusCaller(req, true);
    return settleInvoice(ctx, edgeValue(idParams, req.params).id, 'cash');
  });
  app.post(`/${ns}/invoices/:id/cancel`, settleEdge, async (req) => {
    await plusCaller(req, true);
    return settleInvoice(ctx, edgeValue(idParams, req.params).id, 'cancel');
  });

  // the payment provider's calls: public, its token checked first (401), then its body (applyWebhook)
  const webhookEdge = edge({ body: z.unknown(), anyBody: true, need: 'public' });
  app.post(`/${ns}/billing/webhook`, webhookEdge, async (req) => {
    if (ctx.config.edition !== 'plus') throw denied('Billing needs a Plus server');
    return await applyWebhook(ctx, req);
  });

  registerAccounts(app, ctx);
  if (ctx.config.mode !== 'gateway')
    startBillingJob(ctx, (c, body, overrides) => createInvoice(c, null, body, overrides));
}
