// Users (table users): the lookups and writes of traccar/auth.ts, users.ts, share.ts, password.ts, admin.ts and
// userRules.ts, typed and compiled per dialect. Listing with search and paging stays in traccar/crud.ts for now.
import { sql, type Insertable, type Selectable } from 'kysely';
import type { UserRow as UserTable } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { anyOf, insertAsync, qb, rowAsync, rowsAsync, writeAsync } from './query.ts';

type User = Selectable<UserTable>;

const userById = (db: SqlDatabase, id: number) => qb(db).selectFrom('users').selectAll().where('id', '=', id);

/** A user by id, on the read pool (a request's caller: traccar/auth.ts; the resellers' walks). */
export function findUserByIdAsync(db: SqlDatabase, id: number): Promise<User | undefined> {
  return rowAsync(db, userById(db, id));
}

const usersByIds = (db: SqlDatabase, ids: readonly number[]) =>
  qb(db)
    .selectFrom('users')
    .selectAll()
    .where(anyOf(db, 'id', ids));

/** findUsersByIds on the read pool (an alarm's recipients, the resellers above a user). */
export async function findUsersByIdsAsync(db: SqlDatabase, ids: readonly number[]): Promise<User[]> {
  if (ids.length === 0) return [];
  return rowsAsync(db, usersByIds(db, ids));
}

const userByAccount = (db: SqlDatabase, account: string) =>
  qb(db)
    .selectFrom('users')
    .selectAll()
    .where((eb) =>
      eb.or([eb(eb.fn('lower', ['email']), '=', account), eb(eb.fn('lower', ['login']), '=', account)]),
    )
    .orderBy('id')
    .limit(1);

/**
 * The user whose e-mail or login, lower-cased, is `account` (already lower-case); the oldest first. On the read pool
 * (a request's Basic credentials, a login, a password-reset request).
 */
export function findUserByAccountAsync(db: SqlDatabase, account: string): Promise<User | undefined> {
  return rowAsync(db, userByAccount(db, account));
}

/** A user with this e-mail in any case, other than `exceptId`: on the read pool. */
export async function userIdByEmailAsync(
  db: SqlDatabase,
  email: string,
  exceptId?: number,
): Promise<number | undefined> {
  let q = qb(db)
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', eb.fn('lower', [eb.val(email)])));
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return (await rowAsync(db, q))?.id;
}

/** Whether the store holds any user: on the read pool. */
export async function anyUserAsync(db: SqlDatabase): Promise<boolean> {
  return !!(await rowAsync(db, qb(db).selectFrom('users').select('id').limit(1)));
}

const firstAdministrator = (db: SqlDatabase) =>
  qb(db)
    .selectFrom('users')
    .select((eb) => eb.fn.min('id').as('id'))
    .where('administrator', '=', 1);

/** The first administrator's id (the server's owner), or null, on the read pool or a transaction's handle (the user
 * rules' superior administrator: traccar/userRules.ts; the demo seed). */
export async function firstAdministratorIdAsync(db: SqlDatabase): Promise<number | null> {
  return (await rowAsync(db, firstAdministrator(db)))?.id ?? null;
}

/** Stores a new user row without the main thread waiting (the write client on PostgreSQL, or a transaction's
 * handle: the demo seed): its id. */
export function insertUserRowAsync(db: SqlDatabase, values: Record<string, unknown>): Promise<number> {
  return insertAsync(
    db,
    qb(db)
      .insertInto('users')
      .values(values as Insertable<UserTable>),
  );
}

export async function deleteUserRow(db: SqlDatabase, id: number): Promise<void> {
  await writeAsync(db, qb(db).deleteFrom('users').where('id', '=', id));
}

export async function setHashedPassword(db: SqlDatabase, id: number, hashedPassword: string): Promise<void> {
  await writeAsync(db, qb(db).updateTable('users').set({ hashedPassword }).where('id', '=', id));
}

/** An existing user taken as a share's guest again: temporary, read-only, no commands, enabled. */
export async function markGuest(db: SqlDatabase, id: number): Promise<void> {
  await writeAsync(
    db,
    qb(db)
      .updateTable('users')
      .set({ temporary: 1, readonly: 1, limitCommands: 1, disabled: 0 })
      .where('id', '=', id),
  );
}

export async function enableUntil(db: SqlDatabase, id: number, expirationTime: string): Promise<void> {
  await writeAsync(db, qb(db).updateTable('users').set({ expirationTime, disabled: 0 }).where('id', '=', id));
}

export async function disableUser(db: SqlDatabase, id: number): Promise<void> {
  await writeAsync(db, qb(db).updateTable('users').set({ disabled: 1 }).where('id', '=', id));
}

/**
 * Users whose `expression` (SQL of one of their attributes in the store's dialect, from db/sql.ts jsonField),
 * lower-cased, equals `value`; `exceptId` left out: on the read pool.
 */
export function usersWithAttributeAsync(
  db: SqlDatabase,
  expression: string,
  value: string,
  exceptId?: number,
): Promise<User[]> {
  let q = qb(db)
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(${sql.raw(expression)})`, '=', value);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  return rowsAsync(db, q);
}

const userAttributesUpdate = (db: SqlDatabase, id: number, attributes: string) =>
  qb(db).updateTable('users').set({ attributes }).where('id', '=', id);

/**
 * Writes a user's attributes (JSON text) without the main thread waiting (issue #30, session 33): the store (one
 * autocommitted statement) or a transaction's handle (the QR check-in's).
 */
export async function setUserAttributes(db: SqlDatabase, id: number, attributes: string): Promise<void> {
  await writeAsync(db, userAttributesUpdate(db, id, attributes));
}

/** Every user's flags and attributes (text), as the billing job walks them: on the read pool. */
export function userAccountsAsync(
  db: SqlDatabase,
): Promise<Array<{ id: number; administrator: number; disabled: number; attributes: string }>> {
  return rowsAsync(db, qb(db).selectFrom('users').select(['id', 'administrator', 'disabled', 'attributes']));
}
