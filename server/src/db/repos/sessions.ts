// Cookie sessions, API and remember-me tokens, password-reset tokens (tables sessions, tokens, password_resets):
// the queries of traccar/auth.ts, session.ts, password.ts and share.ts, typed and compiled per dialect.
import type { Selectable } from 'kysely';
import type { UserRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { qb, row, rowAsync, write, writeAsync } from './query.ts';

export interface StoredSession {
  id: string;
  userId: number;
  origin: string | null;
  expiresAt: string | null;
  lastSeenAt: string | null;
  createdAt: string;
  tokenId: string | null;
}

const sessionById = (db: SqlDatabase, id: string) =>
  qb(db)
    .selectFrom('sessions')
    .select(['id', 'userId', 'origin', 'expiresAt', 'lastSeenAt', 'createdAt', 'tokenId'])
    .where('id', '=', id);

export function findSession(db: SqlDatabase, id: string): StoredSession | undefined {
  return row(db, sessionById(db, id));
}

/**
 * A session with its user's row, in one read on the read pool (every request's cookie: traccar/auth.ts); nothing
 * when there is no such session or its user is gone.
 */
export async function findSessionWithUser(
  db: SqlDatabase,
  id: string,
): Promise<{ session: StoredSession; user: Selectable<UserRow> } | undefined> {
  const found = await rowAsync(
    db,
    qb(db)
      .selectFrom('sessions as s')
      .innerJoin('users', 'users.id', 's.userId')
      .selectAll('users')
      .select([
        's.id as sessionId',
        's.userId as sessionUserId',
        's.origin as sessionOrigin',
        's.expiresAt as sessionExpiresAt',
        's.lastSeenAt as sessionLastSeenAt',
        's.createdAt as sessionCreatedAt',
        's.tokenId as sessionTokenId',
      ])
      .where('s.id', '=', id),
  );
  if (!found) return undefined;
  const {
    sessionId,
    sessionUserId: userId,
    sessionOrigin: origin,
    sessionExpiresAt: expiresAt,
    sessionLastSeenAt: lastSeenAt,
    sessionCreatedAt: createdAt,
    sessionTokenId: tokenId,
    ...user
  } = found;
  return { session: { id: sessionId, userId, origin, expiresAt, lastSeenAt, createdAt, tokenId }, user };
}

export function insertSession(db: SqlDatabase, s: StoredSession): void {
  write(db, qb(db).insertInto('sessions').values(s));
}

export function touchSession(db: SqlDatabase, id: string, lastSeenAt: string): void {
  write(db, qb(db).updateTable('sessions').set({ lastSeenAt }).where('id', '=', id));
}

/** Switches a session to another user; `originalUserId` null returns it to its own (log in as, and back). */
export function switchSessionUser(
  db: SqlDatabase,
  id: string,
  userId: number,
  originalUserId: number | null,
): void {
  write(
    db,
    qb(db)
      .updateTable('sessions')
      .set((eb) => ({
        userId,
        originalUserId:
          originalUserId === null ? null : eb.fn.coalesce('originalUserId', eb.val(originalUserId)),
      }))
      .where('id', '=', id),
  );
}

export function sessionOriginalUser(db: SqlDatabase, id: string): number | null {
  return (
    row(db, qb(db).selectFrom('sessions').select('originalUserId').where('id', '=', id))?.originalUserId ??
    null
  );
}

export function sessionExpiry(db: SqlDatabase, id: string): { expiresAt: string | null } | undefined {
  return row(db, qb(db).selectFrom('sessions').select('expiresAt').where('id', '=', id));
}

export function deleteSession(db: SqlDatabase, id: string): void {
  write(db, qb(db).deleteFrom('sessions').where('id', '=', id));
}

/** Ends a user's sessions but `keepId`. */
export async function deleteUserSessions(db: SqlDatabase, userId: number, keepId = ''): Promise<void> {
  await writeAsync(db, qb(db).deleteFrom('sessions').where('userId', '=', userId).where('id', '<>', keepId));
}

export function deleteTokenSessions(db: SqlDatabase, tokenId: string): void {
  write(db, qb(db).deleteFrom('sessions').where('tokenId', '=', tokenId));
}

export function setTokenSessionsExpiry(db: SqlDatabase, tokenId: string, expiresAt: string): void {
  write(db, qb(db).updateTable('sessions').set({ expiresAt }).where('tokenId', '=', tokenId));
}

export interface NewToken {
  id: string;
  userId: number;
  expiresAt: string;
  kind: 'api' | 'remember';
  sessionId: string | null;
}

export function insertToken(db: SqlDatabase, t: NewToken): void {
  write(
    db,
    qb(db)
      .insertInto('tokens')
      .values({ ...t, revoked: 0 }),
  );
}

interface StoredToken {
  userId: number;
  expiresAt: string;
  revoked: number;
}

const tokenById = (db: SqlDatabase, id: string) =>
  qb(db).selectFrom('tokens').select(['userId', 'expiresAt', 'revoked']).where('id', '=', id);

export function findToken(db: SqlDatabase, id: string): StoredToken | undefined {
  return row(db, tokenById(db, id));
}

/** findToken on the read pool (a request's bearer token). */
export function findTokenAsync(db: SqlDatabase, id: string): Promise<StoredToken | undefined> {
  return rowAsync(db, tokenById(db, id));
}

/** Revokes one token: whether it existed. */
export function revokeTokenById(db: SqlDatabase, id: string): boolean {
  return write(db, qb(db).updateTable('tokens').set({ revoked: 1 }).where('id', '=', id)) > 0;
}

/** Revokes the remember-me tokens issued in a session or the one it was restored from. */
export function revokeRememberTokens(db: SqlDatabase, sessionId: string, restoredFrom: string): void {
  write(
    db,
    qb(db)
      .updateTable('tokens')
      .set({ revoked: 1 })
      .where('kind', '=', 'remember')
      .where((eb) => eb.or([eb('sessionId', '=', sessionId), eb('id', '=', restoredFrom)])),
  );
}

export async function revokeUserTokens(db: SqlDatabase, userId: number): Promise<void> {
  await writeAsync(db, qb(db).updateTable('tokens').set({ revoked: 1 }).where('userId', '=', userId));
}

export function setTokenExpiry(db: SqlDatabase, id: string, expiresAt: string): void {
  write(db, qb(db).updateTable('tokens').set({ expiresAt }).where('id', '=', id));
}

/** A new password-reset token for the user: its older ones and every expired one go. */
export function replacePasswordReset(
  db: SqlDatabase,
  tokenHash: string,
  userId: number,
  expiresAt: string,
): void {
  write(
    db,
    qb(db)
      .deleteFrom('password_resets')
      .where((eb) => eb.or([eb('userId', '=', userId), eb('expiresAt', '<', new Date().toISOString())])),
  );
  write(db, qb(db).insertInto('password_resets').values({ tokenHash, userId, expiresAt }));
}

export function findPasswordReset(
  db: SqlDatabase,
  tokenHash: string,
): { userId: number; expiresAt: string } | undefined {
  return row(
    db,
    qb(db).selectFrom('password_resets').select(['userId', 'expiresAt']).where('tokenHash', '=', tokenHash),
  );
}

export function deletePasswordReset(db: SqlDatabase, tokenHash: string): void {
  write(db, qb(db).deleteFrom('password_resets').where('tokenHash', '=', tokenHash));
}

/**
 * Housekeeping: removes sessions past their expiry or idle since `idleBefore`, tokens and password-reset tokens
 * past their expiry (`now`, ISO): how many rows were removed.
 */
export function purgeExpiredSessions(db: SqlDatabase, now: string, idleBefore: string): number {
  return (
    write(
      db,
      qb(db).deleteFrom('sessions').where('expiresAt', 'is not', null).where('expiresAt', '<=', now),
    ) +
    write(
      db,
      qb(db)
        .deleteFrom('sessions')
        .where((eb) => eb(eb.fn.coalesce('lastSeenAt', 'createdAt'), '<=', idleBefore)),
    ) +
    write(db, qb(db).deleteFrom('tokens').where('expiresAt', '<=', now)) +
    write(db, qb(db).deleteFrom('password_resets').where('expiresAt', '<=', now))
  );
}
