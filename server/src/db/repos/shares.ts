// Share links (table shares, with the tokens they log in with): the queries of traccar/share.ts, typed and
// compiled per dialect. The extension's list (ext/shares*.ts) keeps its own SQL for now.
import type { Insertable } from 'kysely';
import type { ShareRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { qb, row, write } from './query.ts';

/** Stores a share: its id. */
export function insertShare(db: SqlDatabase, share: Insertable<ShareRow>): number {
  return Number(row(db, qb(db).insertInto('shares').values(share).returning('id'))!.id);
}

export function findShare(db: SqlDatabase, id: number): { guestId: number; tokenId: string } | undefined {
  return row(db, qb(db).selectFrom('shares').select(['guestId', 'tokenId']).where('id', '=', id));
}

export function setShareExpiry(db: SqlDatabase, id: number, expirationTime: string): void {
  write(db, qb(db).updateTable('shares').set({ expirationTime }).where('id', '=', id));
}

export function deleteShare(db: SqlDatabase, id: number): void {
  write(db, qb(db).deleteFrom('shares').where('id', '=', id));
}

/** The latest expiry among a guest's shares whose token is not revoked, or null. */
export function latestLiveShareExpiry(db: SqlDatabase, guestId: number): string | null {
  const found = row(
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
