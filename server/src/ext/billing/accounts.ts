// Account suspension for non-payment (SPEC §4 Account, §6, §8; .tmp/billing-contract.md; docs/billing.md
// "Accounts and suspension"). Enforced only on a Plus server whose server attribute `{ns}.enableBilling` is on,
// in embedded mode (the users live in this store); otherwise the suspension attributes are ignored.
//   POST /{ns}/users/{id}/suspend       (admin) {ns}.suspended = true (manual: only reactivate lifts it)
//   POST /{ns}/users/{id}/reactivate    (admin) clears suspended, trustUntil, trustUsed
//   POST /{ns}/billing/trust-unlock     {email, password, code?}, no session: one trust period per suspension cycle
// `suspensionRefusal` is the check POST/GET /api/session call (403 JSON for a suspended user).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  OPEN_INVOICE_STATUSES,
  attrBool,
  attrString,
  isInvoiceStatus,
  nsKey,
  readUserBilling,
  trustUnlockRequestSchema,
  trustUntilFrom,
  userAccountState,
  BILLING_SUSPENDED_AUTO,
  billingAttributeKeys,
  restoreAttributes,
  type Attributes,
  type InvoiceStatus,
} from '@rastro/domain';
import type { AppContext } from '../../context.ts';
import { badRequest, denied, notFound } from '../../errors.ts';
import { logAction } from '../../traccar/audit.ts';
import { findUser, passwordLogin } from '../../traccar/auth.ts';
import { edge, edgeValue, idParams, noBody } from '../../edge.ts';
import { parseAttributes } from '../../traccar/model.ts';
import { checkEditTarget } from '../../traccar/userRules.ts';
import { requireCaller } from '../caller.ts';
import { invoicesOfUserIn } from '../../db/repos/billing.ts';
import { serverAttributesText } from '../../db/repos/server.ts';
import { deleteUserSessions } from '../../db/repos/sessions.ts';
import { findUserById, setUserAttributes } from '../../db/repos/users.ts';

// ---- clock (tests inject one) ------------------------------------------------------------------------------

const clocks = new WeakMap<AppContext, () => number>();
/** Replaces the billing clock of `ctx` (login check, trust unlock, billing job). */
export function setBillingClock(ctx: AppContext, now: () => number): void {
  clocks.set(ctx, now);
}
export const billingNow = (ctx: AppContext): number => (clocks.get(ctx) ?? Date.now)();

/** A user's attributes column as the domain's Attributes. */
export const attrsOf = (text: unknown): Attributes => parseAttributes(text) as Attributes;

// ---- state -------------------------------------------------------------------------------------------------

/** Server-written marker: the suspension was made by the billing job (lifted automatically once paid). */
export const SUSPENDED_AUTO = BILLING_SUSPENDED_AUTO;

/** Plus edition and the server attribute `{ns}.enableBilling` on (gateway mode: not checked here). */
export function isBillingOn(ctx: AppContext): boolean {
  if (ctx.config.edition !== 'plus') return false;
  if (ctx.config.mode === 'gateway') return true;
  const attributes = serverAttributesText(ctx.store.sql);
  return attrBool(parseAttributes(attributes)[nsKey(ctx.config.ns, 'enableBilling')]);
}

/** Suspension is enforced: billing on and the users are this store's (embedded mode). */
export const isSuspensionEnforced = (ctx: AppContext): boolean =>
  ctx.config.mode !== 'gateway' && isBillingOn(ctx);

export interface OpenInvoice {
  id: number;
  dueDate: string;
  value: number;
  status: InvoiceStatus;
  invoiceUrl: string | null;
}

/** A user's open invoices (TARKAN_GENERATED, PENDING, OVERDUE), oldest due date first. */
export async function openInvoices(ctx: AppContext, userId: number): Promise<OpenInvoice[]> {
  const rows = await invoicesOfUserIn(ctx.store.sql, userId, OPEN_INVOICE_STATUSES);
  return rows.map((r) => ({ ...r, status: isInvoiceStatus(r.status) ? r.status : 'PENDING' }));
}

interface UserState {
  id: number;
  administrator: number | boolean | null;
  attributes: string | null;
}

function userState(ctx: AppContext, id: number): UserState | undefined {
  return findUserById(ctx.store.sql, id);
}

/** Sets (value) or removes (undefined) the server-written attributes `names` of user `id` (the write: issue #30). */
export async function writeUserState(
  ctx: AppContext,
  id: number,
  values: Record<string, unknown>,
): Promise<void> {
  const u = userState(ctx, id);
  if (!u) return;
  const attrs = parseAttributes(u.attributes);
  for (const [name, v] of Object.entries(values)) {
    const key = nsKey(ctx.config.ns, name);
    if (v === undefined) delete attrs[key];
    else attrs[key] = v;
  }
  await setUserAttributes(ctx.store.sql, id, JSON.stringify(attrs));
}

/** Clears every suspension state attribute (reactivation, or a paid automatic suspension). */
export const clearSuspension = (ctx: AppContext, id: number): Promise<void> =>
  writeUserState(ctx, id, {
    suspended: undefined,
    trustUntil: undefined,
    trustUsed: undefined,
    [SUSPENDED_AUTO]: undefined,
  });

/** Ends the user's cookie sessions (on suspension: the web app has to sign in again and is refused). */
export async function endCookieSessions(ctx: AppContext, id: number): Promise<void> {
  await deleteUserSessions(ctx.store.sql, id);
  ctx.bus.emit('signedOut', id);
}

/**
 * PUT /api/users by a non-administrator: the billing settings and suspension state are kept as stored (a user
 * or manager can neither lift a suspension nor change a price by editing attributes).
 */
export function protectBillingAttributes(
  ctx: AppContext,
  storedAttributes: unknown,
  input: Record<string, unknown>,
): Record<string, unknown> {
  return restoreAttributes(
    parseAttributes(storedAttributes) as Attributes,
    input as Attributes,
    billingAttributeKeys(ctx.config.ns),
  );
}

export interface SuspensionRefusal {
  error: 'ACCOUNT_IS_SUSPENDED_TRUST' | 'ACCOUNT_IS_SUSPENDED';
  trustAvailable: boolean;
  invoices: OpenInvoice[];
}

const trustAvailableFor = (ctx: AppContext, attrs: Attributes): boolean =>
  readUserBilling(attrs, ctx.config.ns).trustUnlock && !attrBool(attrs[nsKey(ctx.config.ns, 'trustUsed')]);

/**
 * The 403 body for a suspended user without a running trust period, else null. Administrators are never
 * suspended; nothing is enforced unless billing is on.
 */
export async function suspensionRefusal(
  ctx: AppContext,
  user: { id: number; administrator?: number | boolean | null; attributes?: string | null },
): Promise<SuspensionRefusal | null> {
  if (user.administrator || !isSuspensionEnforced(ctx)) return null;
  const attrs = attrsOf(user.attributes);
  if (userAccountState(attrs, ctx.config.ns, new Date(billingNow(ctx))).state !== 'suspended') return null;
  const trustAvailable = trustAvailableFor(ctx, attrs);
  return {
    error: trustAvailable ? 'ACCOUNT_IS_SUSPENDED_TRUST' : 'ACCOUNT_IS_SUSPENDED',
    trustAvailable,
    invoices: await openInvoices(ctx, user.id), // read on the pool
  };
}

// ---- routes ------------------------------------------------------------------------------------------------

async function adminTarget(ctx: AppContext, req: FastifyRequest): Promise<{ callerId: number; id: number }> {
  const caller = await requireCaller(ctx, req);
  if (ctx.config.edition !== 'plus') throw denied('Billing needs a Plus server');
  if (!caller.administrator) throw denied('Administrator access required');
  if (ctx.config.mode === 'gateway') throw badRequest('Account suspension needs the embedded server');
  const { id } = edgeValue(idParams, req.params);
  if (!userState(ctx, id)) throw notFound(`User ${id} not found`);
  return { callerId: caller.userId, id };
}

/** The trust-unlock form: e-mail and password, and the TOTP code of users who have one. */
const trustUnlockForm = trustUnlockRequestSchema.extend({
  code: z
    .unknown()
    .optional()
    .transform((v) => (typeof v === 'string' ? v : undefined)),
});

export function registerAccounts(app: FastifyInstance, ctx: AppContext): void {
  const ns = ctx.config.ns;

  // users.lock / users.unlock (the table); adminTarget answers the edition and the administrator in order
  const accountEdge = edge({ params: idParams, body: noBody, need: 'table' });
  app.post(`/${ns}/users/:id/suspend`, accountEdge, async (req, reply) => {
    const { callerId, id } = await adminTarget(ctx, req);
    const caller = findUser(ctx, callerId);
    const target = findUser(ctx, id);
    if (caller && target) await checkEditTarget(ctx, req, caller, target); // not the superior administrator
    if (!isBillingOn(ctx)) throw badRequest('Billing is not enabled');
    if (userState(ctx, id)?.administrator) throw badRequest('Administrators cannot be suspended');
    await writeUserState(ctx, id, { suspended: true, [SUSPENDED_AUTO]: undefined, trustUntil: undefined });
    await endCookieSessions(ctx, id);
    await logAction(ctx, req, callerId, 'edit', 'user', id, { billing: 'suspend' });
    return reply.status(204).send();
  });

  // Allowed while billing is off too, so an administrator can always clean a stale suspension.
  app.post(`/${ns}/users/:id/reactivate`, accountEdge, async (req, reply) => {
    const { callerId, id } = await adminTarget(ctx, req);
    await clearSuspension(ctx, id);
    await logAction(ctx, req, callerId, 'edit', 'user', id, { billing: 'reactivate' });
    return reply.status(204).send();
  });

  // the suspended account's own form (it cannot sign in): public, a form or JSON
  const unlockEdge = edge({ body: trustUnlockForm, media: 'form', need: 'public' });
  app.post(`/${ns}/billing/trust-unlock`, unlockEdge, async (req) => {
    const body = edgeValue(trustUnlockForm, req.body);
    const code = body.code || undefined; // TOTP users
    if (ctx.config.edition !== 'plus') throw denied('Billing needs a Plus server');
    if (!isSuspensionEnforced(ctx)) throw badRequest('Billing is not enabled');
    // Same rate limits as POST /api/session (per account and per address).
    const r = await passwordLogin(ctx, req.ip, body.email, body.password, code);
    if (!r.ok) {
      if (r.reason === 'totpRequired') throw badRequest('code: the one-time password code is required');
      if (r.reason === 'disabled') throw denied('User is disabled');
      if (r.reason === 'expired') throw denied('User has expired');
      throw badRequest('Invalid email or password');
    }
    const user = r.user;
    const attrs = attrsOf(user.attributes);
    const now = billingNow(ctx);
    const state = user.administrator
      ? { state: 'active' as const }
      : userAccountState(attrs, ns, new Date(now));
    if (state.state === 'active') throw badRequest('The account is not suspended');
    if (state.state === 'trust')
      throw badRequest(`A trust period is already running until ${state.trustUntil}`);
    if (!readUserBilling(attrs, ns).trustUnlock)
      throw badRequest('Trust unlock is not available for this account');
    if (attrBool(attrs[nsKey(ns, 'trustUsed')])) throw badRequest('The trust unlock was already used');
    const trustUntil = trustUntilFrom(now, readUserBilling(attrs, ns).trustUnlockDays);
    await writeUserState(ctx, user.id, { trustUntil, trustUsed: true });
    await logAction(ctx, req, user.id, 'edit', 'user', user.id, { billing: 'trustUnlock', trustUntil });
    return { trustUntil };
  });
}

/** `{ns}.trustUntil` of a user's attributes, when set. */
export const trustUntilOf = (ctx: AppContext, attrs: Attributes): string | undefined =>
  attrString(attrs[nsKey(ctx.config.ns, 'trustUntil')]);
