// The billing job (docs/billing.md "Accounts and suspension"): at startup and every hour, when suspension is
// enforced (Plus, `{ns}.enableBilling` on, embedded mode):
//   1. open invoices (TARKAN_GENERATED, PENDING) whose due date has passed become OVERDUE;
//   2. each non-admin, enabled user with `{ns}.billing` on, a price and a due day gets the invoice of the next
//      monthly due date once it is at most 10 days ahead, unless the user already has an invoice due in that
//      month (created through the same code as POST /{ns}/invoices, so the provider charge is made);
//   3. accounts are reconciled (reconcileAccount): `{ns}.autoSuspend` suspends when an invoice is overdue for
//      `{ns}.autoSuspendDays` days; an automatic suspension is lifted (trustUsed reset) once no invoice is overdue;
//      an expired `{ns}.trustUntil` is removed, so a still-suspended account is refused again.
import {
  OPEN_INVOICE_STATUSES,
  attrBool,
  isInvoiceStatus,
  isMonthlyInvoiceDue,
  nextMonthlyDueDate,
  nsKey,
  overdueDays,
  readUserBilling,
  shouldAutoSuspend,
  type InvoiceIntegration,
} from '@rastro/domain';
import type { AppContext } from '../../context.ts';
import { logAction } from '../../traccar/audit.ts';
import {
  SUSPENDED_AUTO,
  attrsOf,
  billingNow,
  clearSuspension,
  endCookieSessions,
  isSuspensionEnforced,
  trustUntilOf,
  writeUserState,
} from './accounts.ts';
import { hasInvoiceDueIn, invoicesOfUserIn, markInvoicesDueBefore } from '../../db/repos/billing.ts';
import { findUserByIdAsync, userAccountsAsync } from '../../db/repos/users.ts';

export const BILLING_JOB_INTERVAL_MS = 60 * 60 * 1000;

/** Creates one invoice like POST /{ns}/invoices (the provider charge included); given by the billing index. */
export type InvoiceCreator = (
  ctx: AppContext,
  body: { userId: number; value: number; dueDate: string; description?: string },
  overrides: Partial<InvoiceIntegration>,
) => Promise<unknown>;

export interface BillingJobResult {
  /** Invoices created (their users' ids). */
  created: number[];
  /** Invoices marked OVERDUE. */
  overdue: number;
  suspended: number[];
  lifted: number[];
}

const today = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 10);

/** Marks passed open invoices OVERDUE; answers how many changed. */
export function markOverdue(ctx: AppContext, nowMs: number): Promise<number> {
  return markInvoicesDueBefore(ctx.store.sql, ['TARKAN_GENERATED', 'PENDING'], today(nowMs), 'OVERDUE');
}

/**
 * Suspends or lifts one account from its invoices (called by the job, and after cash or a webhook so a payment
 * lifts the suspension at once). Answers what changed.
 */
export async function reconcileAccount(
  ctx: AppContext,
  userId: number,
  nowMs: number = billingNow(ctx),
): Promise<'suspended' | 'lifted' | null> {
  if (!(await isSuspensionEnforced(ctx))) return null;
  const u = await findUserByIdAsync(ctx.store.sql, userId);
  if (!u || u.administrator) return null;
  const ns = ctx.config.ns;
  const attrs = attrsOf(u.attributes);
  const open = await invoicesOfUserIn(ctx.store.sql, userId, OPEN_INVOICE_STATUSES); // on the pool
  const invoices = open.flatMap((i) =>
    isInvoiceStatus(i.status) ? [{ status: i.status, dueDate: i.dueDate }] : [],
  );
  const anyOverdue = invoices.some((i) => overdueDays(i, nowMs) >= 1);
  const suspended = attrBool(attrs[nsKey(ns, 'suspended')]);
  const auto = attrBool(attrs[nsKey(ns, SUSPENDED_AUTO)]);
  const trustUntil = trustUntilOf(ctx, attrs);

  if (!anyOverdue) {
    // Paid: an automatic suspension ends and the trust unlock is available again. A manual one stays.
    if (suspended && auto) {
      await clearSuspension(ctx, userId);
      await logAction(ctx, null, userId, 'edit', 'user', userId, { billing: 'autoReactivate' });
      return 'lifted';
    }
    if (!suspended && (trustUntil || attrBool(attrs[nsKey(ns, 'trustUsed')])))
      await clearSuspension(ctx, userId);
    return null;
  }
  if (trustUntil && !(Date.parse(trustUntil) > nowMs)) {
    await writeUserState(ctx, userId, { trustUntil: undefined }); // the trust period is over: refused again
  }
  const billing = readUserBilling(attrs, ns);
  if (!suspended && billing.autoSuspend && shouldAutoSuspend(invoices, billing.autoSuspendDays ?? 1, nowMs)) {
    await writeUserState(ctx, userId, { suspended: true, [SUSPENDED_AUTO]: true });
    // the sessions end on the write client; a failure is logged (the job goes on with the other accounts)
    await endCookieSessions(ctx, userId).catch((err: unknown) =>
      ctx.log.error({ err, userId }, "billing: ending a suspended account's sessions failed"),
    );
    await logAction(ctx, null, userId, 'edit', 'user', userId, { billing: 'autoSuspend' });
    return 'suspended';
  }
  return null;
}

/** One run of the job at `nowMs` (nothing happens unless suspension is enforced). */
export async function runBillingJob(
  ctx: AppContext,
  createInvoice: InvoiceCreator,
  nowMs: number = billingNow(ctx),
): Promise<BillingJobResult> {
  const result: BillingJobResult = { created: [], overdue: 0, suspended: [], lifted: [] };
  if (!(await isSuspensionEnforced(ctx))) return result;
  result.overdue = await markOverdue(ctx, nowMs);
  const ns = ctx.config.ns;
  const users = await userAccountsAsync(ctx.store.sql);
  for (const u of users) {
    if (u.administrator || u.disabled) continue;
    const b = readUserBilling(attrsOf(u.attributes), ns);
    if (!b.billing || !b.price || b.price <= 0 || !b.dueDay) continue;
    const dueDate = nextMonthlyDueDate(nowMs, b.dueDay);
    if (!isMonthlyInvoiceDue(dueDate, nowMs)) continue;
    if (await hasInvoiceDueIn(ctx.store.sql, u.id, dueDate.slice(0, 7))) continue;
    const overrides: Partial<InvoiceIntegration> = {};
    if (b.fine !== null) Object.assign(overrides, { fine: b.fine, fineMode: b.fineMode.toUpperCase() });
    if (b.interest !== null) overrides.interest = b.interest;
    if (b.discount !== null)
      Object.assign(overrides, {
        discount: b.discount,
        discountMode: b.discountMode.toUpperCase(),
        discountDays: b.discountDays ?? 0,
      });
    try {
      await createInvoice(
        ctx,
        { userId: u.id, value: b.price, dueDate, ...(b.description ? { description: b.description } : {}) },
        overrides,
      );
      result.created.push(u.id);
    } catch (err) {
      ctx.log.warn({ err, userId: u.id, dueDate }, 'billing job: monthly invoice not created');
    }
  }
  for (const u of users) {
    const change = await reconcileAccount(ctx, u.id, nowMs);
    if (change === 'suspended') result.suspended.push(u.id);
    if (change === 'lifted') result.lifted.push(u.id);
  }
  return result;
}

const jobs = new WeakMap<AppContext, () => Promise<BillingJobResult>>();

/** Runs the job at startup and every hour (runs never overlap); stopped when the app closes. */
export function startBillingJob(ctx: AppContext, createInvoice: InvoiceCreator): void {
  let running: Promise<BillingJobResult> | null = null;
  const run = (): Promise<BillingJobResult> => {
    const next = (running ?? Promise.resolve(null)).then(() => runBillingJob(ctx, createInvoice));
    running = next.catch(() => null as unknown as BillingJobResult);
    return next;
  };
  jobs.set(ctx, run);
  // one process runs it when several share a PostgreSQL database (db/cluster.ts)
  const safe = () => {
    if (!ctx.cluster.isLeader()) return;
    run().then(
      (r) => ctx.log.debug({ created: r.created.length, overdue: r.overdue }, 'billing job ran'),
      (err: unknown) => ctx.log.error({ err }, 'billing job failed'),
    );
  };
  const first = setTimeout(safe, 0);
  const timer = setInterval(safe, BILLING_JOB_INTERVAL_MS);
  first.unref?.();
  timer.unref?.();
  ctx.onClose.push(() => {
    clearTimeout(first);
    clearInterval(timer);
    jobs.delete(ctx);
  });
}

/** Runs the started job of `ctx` now (after any run in progress); tests and admin tools. */
export function runBillingJobNow(ctx: AppContext): Promise<BillingJobResult> {
  const run = jobs.get(ctx);
  if (!run) throw new Error('the billing job is not started');
  return run();
}
