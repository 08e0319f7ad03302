// Billing (tables invoices, integrations, billing_customers): the queries of ext/billing (the routes, the
// account suspension and the hourly job), typed and compiled per dialect. The users' own rows are users.ts's.
// Every query runs asynchronously: reads on the read pool, writes on the write client (PostgreSQL, issue #30).
import { sql, type Insertable, type Selectable } from 'kysely';
import type { InvoiceRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { anyOf, insertAsync, qb, rowAsync, rowsAsync, writeAsync } from './query.ts';

export type StoredInvoice = Selectable<InvoiceRow>;

// ---- integrations ------------------------------------------------------------------------------------------

/** An integration's settings (JSON text), if saved. */
export async function integrationConfig(db: SqlDatabase, key: string): Promise<string | undefined> {
  return (await rowAsync(db, qb(db).selectFrom('integrations').select('config').where('key', '=', key)))
    ?.config;
}

/** Saves an integration's settings, replacing what was stored under its key. */
export async function saveIntegrationConfig(db: SqlDatabase, key: string, config: string): Promise<void> {
  await writeAsync(
    db,
    qb(db)
      .insertInto('integrations')
      .values({ key, config })
      .onConflict((oc) => oc.column('key').doUpdateSet((eb) => ({ config: eb.ref('excluded.config') }))),
  );
}

// ---- the payment provider's customers ----------------------------------------------------------------------

/** The provider's customer id of a user, if one was made. */
export async function billingCustomerId(
  db: SqlDatabase,
  userId: number,
  provider: string,
): Promise<string | undefined> {
  const found = await rowAsync(
    db,
    qb(db)
      .selectFrom('billing_customers')
      .select('externalId')
      .where('userId', '=', userId)
      .where('provider', '=', provider),
  );
  return found?.externalId;
}

/** Remembers (or replaces) the provider's customer id of a user. */
export async function saveBillingCustomer(
  db: SqlDatabase,
  userId: number,
  provider: string,
  externalId: string,
): Promise<void> {
  await writeAsync(
    db,
    qb(db)
      .insertInto('billing_customers')
      .values({ userId, provider, externalId })
      .onConflict((oc) =>
        oc
          .columns(['userId', 'provider'])
          .doUpdateSet((eb) => ({ externalId: eb.ref('excluded.externalId') })),
      ),
  );
}

// ---- invoices ----------------------------------------------------------------------------------------------

export function findInvoice(db: SqlDatabase, id: number): Promise<StoredInvoice | undefined> {
  return rowAsync(db, qb(db).selectFrom('invoices').selectAll().where('id', '=', id));
}

/** The invoice charged at the provider as `externalId` (the webhook's payment id). */
export function invoiceByExternalId(
  db: SqlDatabase,
  externalId: string,
): Promise<{ id: number; userId: number } | undefined> {
  return rowAsync(
    db,
    qb(db).selectFrom('invoices').select(['id', 'userId']).where('externalId', '=', externalId),
  );
}

/** A user's invoices, the latest due date first. */
export function invoicesOfUser(db: SqlDatabase, userId: number): Promise<StoredInvoice[]> {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('invoices')
      .selectAll()
      .where('userId', '=', userId)
      .orderBy('dueDate', 'desc')
      .orderBy('id', 'desc'),
  );
}

export interface OpenInvoiceRow {
  id: number;
  dueDate: string;
  value: number;
  status: string;
  invoiceUrl: string | null;
}

/** A user's invoices in one of `statuses`, the oldest due date first. */
export async function invoicesOfUserIn(
  db: SqlDatabase,
  userId: number,
  statuses: readonly string[],
): Promise<OpenInvoiceRow[]> {
  if (!statuses.length) return [];
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('invoices')
      .select(['id', 'dueDate', 'value', 'status', 'invoiceUrl'])
      .where('userId', '=', userId)
      .where(anyOf(db, 'status', statuses))
      .orderBy('dueDate')
      .orderBy('id'),
  );
}

/** Whether a user has an invoice due in the month `yyyyMm` (`YYYY-MM`). */
export async function hasInvoiceDueIn(db: SqlDatabase, userId: number, yyyyMm: string): Promise<boolean> {
  return !!(await rowAsync(
    db,
    qb(db)
      .selectFrom('invoices')
      .select('id')
      .where('userId', '=', userId)
      .where(sql<string>`substr(${sql.ref('dueDate')}, 1, 7)`, '=', yyyyMm)
      .limit(1),
  ));
}

/** Stores a new invoice: its id. */
export function insertInvoice(
  db: SqlDatabase,
  invoice: Pick<
    Insertable<InvoiceRow>,
    'userId' | 'dueDate' | 'value' | 'status' | 'description' | 'createdAt'
  >,
): Promise<number> {
  return insertAsync(db, qb(db).insertInto('invoices').values(invoice));
}

/** The provider's charge of an invoice: its status, id and page. */
export async function setInvoiceCharge(
  db: SqlDatabase,
  id: number,
  charge: { status: string; externalId: string | null; invoiceUrl: string | null },
): Promise<void> {
  const { status, externalId, invoiceUrl } = charge; // nothing else the caller's object holds
  await writeAsync(
    db,
    qb(db).updateTable('invoices').set({ status, externalId, invoiceUrl }).where('id', '=', id),
  );
}

export async function setInvoiceStatus(
  db: SqlDatabase,
  id: number,
  status: string,
  paidDate: string | null,
): Promise<void> {
  await writeAsync(db, qb(db).updateTable('invoices').set({ status, paidDate }).where('id', '=', id));
}

export async function deleteInvoice(db: SqlDatabase, id: number): Promise<void> {
  await writeAsync(db, qb(db).deleteFrom('invoices').where('id', '=', id));
}

/** Invoices in one of `statuses` due before `day` (`YYYY-MM-DD`) become `status`: how many changed. */
export async function markInvoicesDueBefore(
  db: SqlDatabase,
  statuses: readonly string[],
  day: string,
  status: string,
): Promise<number> {
  return writeAsync(
    db,
    qb(db)
      .updateTable('invoices')
      .set({ status })
      .where(anyOf(db, 'status', statuses))
      .where('dueDate', '<', day),
  );
}
