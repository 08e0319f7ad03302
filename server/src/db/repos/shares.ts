// Share links (table shares, with the tokens they log in with): the queries of traccar/share.ts and of the
// extension's routes (ext/shares.ts embedded, ext/sharesGateway.ts in gateway mode), typed and compiled per dialect.
import type { Insertable } from 'kysely';
import type { ShareRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { anyOf, insertAsync, qb, rowAsync, rowsAsync, writeAsync } from './query.ts';

/** Stores a share: its id. */
export function insertShare(db: SqlDatabase, share: Insertable<ShareRow>): Promise<number> {
  return insertAsync(db, qb(db).insertInto('shares').values(share));
}

export function findShare(
  db: SqlDatabase,
  id: number,
): Promise<{ guestId: number; tokenId: string } | undefined> {
  return rowAsync(db, qb(db).selectFrom('shares').select(['guestId', 'tokenId']).where('id', '=', id));
}

export async function setShareExpiry(db: SqlDatabase, id: number, expirationTime: string): Promise<void> {
  await writeAsync(db, qb(db).updateTable('shares').set({ expirationTime }).where('id', '=', id));
}

export async function deleteShare(db: SqlDatabase, id: number): Promise<void> {
  await writeAsync(db, qb(db).deleteFrom('shares').where('id', '=', id));
}

/** The latest expiry among a guest's shares whose token is not revoked, or null. */
export async function latestLiveShareExpiry(db: SqlDatabase, guestId: number): Promise<string | null> {
  const found = await rowAsync(
    db,
    qb(db)
      .selectFrom('shares as s')
      .innerJoin('tokens as t', 't.id', 's.tokenId')
      .select((eb) => eb.fn.max('s.expirationTime').as('until'))
      .where('s.guestId', '=', guestId)
      .where('t.revoked', '=', 0),
  );
  return found?.until ?? null;
}

/** A share as the extension lists it: its target's and creator's names as they are now, else as stored. */
export interface ListedShare {
  id: number;
  creatorId: number;
  token: string;
  deviceId: number | null;
  groupId: number | null;
  expirationTime: string;
  createdAt: string;
  name: string | null;
  creatorName: string | null;
}

/** The list's query, before its filter and order. */
const listedShares = (db: SqlDatabase) =>
  qb(db)
    .selectFrom('shares as s')
    .leftJoin('devices as d', 'd.id', 's.deviceId')
    .leftJoin('groups as g', 'g.id', 's.groupId')
    .leftJoin('users as u', 'u.id', 's.creatorId')
    .select(['s.id', 's.creatorId', 's.token', 's.deviceId', 's.groupId', 's.expirationTime', 's.createdAt'])
    .select((eb) => [
      eb.fn.coalesce('d.name', 'g.name', 's.targetName').as('name'),
      eb.fn.coalesce('u.name', 's.creatorName').as('creatorName'),
    ]);

/** The shares made by one of `creatorIds` (every share when null), oldest first. */
export function listShares(db: SqlDatabase, creatorIds: readonly number[] | null): Promise<ListedShare[]> {
  const q = listedShares(db);
  return rowsAsync(db, (creatorIds ? q.where(anyOf(db, 's.creatorId', creatorIds)) : q).orderBy('s.id'));
}

export function listedShare(db: SqlDatabase, id: number): Promise<ListedShare | undefined> {
  return rowAsync(db, listedShares(db).where('s.id', '=', id));
}

/** The latest expiry among a guest's shares, revoked or not (gateway mode: the upstream guest's), or null. */
export async function latestShareExpiry(db: SqlDatabase, guestId: number): Promise<string | null> {
  const found = await rowAsync(
    db,
    qb(db)
      .selectFrom('shares')
      .select((eb) => eb.fn.max('expirationTime').as('until'))
      .where('guestId', '=', guestId),
  );
  return found?.until ?? null;
}

/** A share's guest and current token. */
export function shareGuestToken(
  db: SqlDatabase,
  id: number,
): Promise<{ guestId: number; token: string } | undefined> {
  return rowAsync(db, qb(db).selectFrom('shares').select(['guestId', 'token']).where('id', '=', id));
}

/** A share's new token (and its SHA-256) and expiry. */
export async function replaceShareToken(
  db: SqlDatabase,
  id: number,
  token: { token: string; tokenId: string; expirationTime: string },
): Promise<void> {
  const { token: text, tokenId, expirationTime } = token;
  await writeAsync(
    db,
    qb(db).updateTable('shares').set({ token: text, tokenId, expirationTime }).where('id', '=', id),
  );
}
