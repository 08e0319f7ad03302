// Cookie sessions, API and remember-me tokens, password-reset tokens (tables sessions, tokens, password_resets):
// the queries of traccar/auth.ts, session.ts, password.ts and share.ts, typed and compiled per dialect.
import type { Selectable } from 'kysely';
import type { UserRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { inTransaction, qb, rowAsync, writeAsync } from './query.ts';

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

/** A stored session, read on the read pool (logout's remember-me token, a request's own session). */
export function findSessionAsync(db: SqlDatabase, id: string): Promise<StoredSession | undefined> {
  return rowAsync(db, sessionById(db, id));
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

export async function insertSession(db: SqlDatabase, s: StoredSession): Promise<void> {
  await writeAsync(db, qb(db).insertInto('sessions').values(s));
}

export async function touchSession(db: SqlDatabase, id: string, lastSeenAt: string): Promise<void> {
  await writeAsync(db, qb(db).updateTable('sessions').set({ lastSeenAt }).where('id', '=', id));
}

/** Switches a session to another user; `originalUserId` null returns it to its own (log in as, and back). */
export async function switchSessionUser(
  db: SqlDatabase,
  id: string,
  userId: number,
  originalUserId: number | null,
): Promise<void> {
  await writeAsync(
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

/** The administrator who switched the session to its user ("log in as"), or null: on the read pool. */
export async function sessionOriginalUserAsync(db: SqlDatabase, id: string): Promise<number | null> {
  const found = await rowAsync(
    db,
    qb(db).selectFrom('sessions').select('originalUserId').where('id', '=', id),
  );
  return found?.originalUserId ?? null;
}

/** A session's expiry, on the read pool. */
export function sessionExpiryAsync(
  db: SqlDatabase,
  id: string,
): Promise<{ expiresAt: string | null } | undefined> {
  return rowAsync(db, qb(db).selectFrom('sessions').select('expiresAt').where('id', '=', id));
}

export async function deleteSession(db: SqlDatabase, id: string): Promise<void> {
  await writeAsync(db, qb(db).deleteFrom('sessions').where('id', '=', id));
}

/** Ends a user's sessions but `keepId`. */
export async function deleteUserSessions(db: SqlDatabase, userId: number, keepId = ''): Promise<void> {
  await writeAsync(db, qb(db).deleteFrom('sessions').where('userId', '=', userId).where('id', '<>', keepId));
}

export async function deleteTokenSessions(db: SqlDatabase, tokenId: string): Promise<void> {
  await writeAsync(db, qb(db).deleteFrom('sessions').where('tokenId', '=', tokenId));
}

export async function setTokenSessionsExpiry(
  db: SqlDatabase,
  tokenId: string,
  expiresAt: string,
): Promise<void> {
  await writeAsync(db, qb(db).updateTable('sessions').set({ expiresAt }).where('tokenId', '=', tokenId));
}

export interface NewToken {
  id: string;
  userId: number;
  expiresAt: string;
  kind: 'api' | 'remember';
  sessionId: string | null;
}

export async function insertToken(db: SqlDatabase, t: NewToken): Promise<void> {
  await writeAsync(
    db,
    qb(db)
      .insertInto('tokens')
      .values({ ...t, revoked: 0 }),
  );
}

export interface StoredToken {
  userId: number;
  expiresAt: string;
  revoked: number;
}

const tokenById = (db: SqlDatabase, id: string) =>
  qb(db).selectFrom('tokens').select(['userId', 'expiresAt', 'revoked']).where('id', '=', id);

/** A stored token, on the read pool (a request's bearer token, a revoke, GET /api/session?token=). */
export function findTokenAsync(db: SqlDatabase, id: string): Promise<StoredToken | undefined> {
  return rowAsync(db, tokenById(db, id));
}

/** Revokes one token: whether it existed. */
export async function revokeTokenById(db: SqlDatabase, id: string): Promise<boolean> {
  return (await writeAsync(db, qb(db).updateTable('tokens').set({ revoked: 1 }).where('id', '=', id))) > 0;
}

/** Revokes the remember-me tokens issued in a session or the one it was restored from. */
export async function revokeRememberTokens(
  db: SqlDatabase,
  sessionId: string,
  restoredFrom: string,
): Promise<void> {
  await writeAsync(
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

export async function setTokenExpiry(db: SqlDatabase, id: string, expiresAt: string): Promise<void> {
  await writeAsync(db, qb(db).updateTable('tokens').set({ expiresAt }).where('id', '=', id));
}

/** A new password-reset token for the user: its older ones and every expired one go (one transaction). */
export function replacePasswordReset(
  db: SqlDatabase,
  tokenHash: string,
  userId: number,
  expiresAt: string,
): Promise<void> {
  return inTransaction(db, async (tx) => {
    await writeAsync(
      tx,
      qb(tx)
        .deleteFrom('password_resets')
        .where((eb) => eb.or([eb('userId', '=', userId), eb('expiresAt', '<', new Date().toISOString())])),
    );
    await writeAsync(tx, qb(tx).insertInto('password_resets').values({ tokenHash, userId, expiresAt }));
  });
}

/** A password-reset token's user and expiry, on the read pool. */
export function findPasswordResetAsync(
  db: SqlDatabase,
  tokenHash: string,
): Promise<{ userId: number; expiresAt: string } | undefined> {
  return rowAsync(
    db,
    qb(db).selectFrom('password_resets').select(['userId', 'expiresAt']).where('tokenHash', '=', tokenHash),
  );
}

export async function deletePasswordReset(db: SqlDatabase, tokenHash: string): Promise<void> {
  await writeAsync(db, qb(db).deleteFrom('password_resets').where('tokenHash', '=', tokenHash));
}

/**
 * Housekeeping: removes sessions past their expiry or idle since `idleBefore`, tokens and password-reset tokens
 * past their expiry (`now`, ISO): how many rows were removed.
 */
export async function purgeExpiredSessions(
  db: SqlDatabase,
  now: string,
  idleBefore: string,
): Promise<number> {
  const counts = [
    await writeAsync(
      db,
      qb(db).deleteFrom('sessions').where('expiresAt', 'is not', null).where('expiresAt', '<=', now),
    ),
    await writeAsync(
      db,
      qb(db)
        .deleteFrom('sessions')
        .where((eb) => eb(eb.fn.coalesce('lastSeenAt', 'createdAt'), '<=', idleBefore)),
    ),
    await writeAsync(db, qb(db).deleteFrom('tokens').where('expiresAt', '<=', now)),
    await writeAsync(db, qb(db).deleteFrom('password_resets').where('expiresAt', '<=', now)),
  ];
  return counts.reduce((a, b) => a + b, 0);
}
