// Permission links (table links: owner → property, CONTRACT §3 stems): the queries of traccar/access.ts,
// permissions.ts, users.ts and share.ts, typed and compiled per dialect. The writes are asynchronous (issue #30,
// session 32): on PostgreSQL they run on the write client, or in the transaction whose handle they are given
// (query.ts inTransaction), the demo seed's included; PostgreSQL has no synchronous statement since session 38.
import { sql } from 'kysely';
import type { SqlDatabase } from '../sql.ts';
import { anyOf, qb, rowAsync, rowsAsync, writeAsync } from './query.ts';

export interface Link {
  ownerType: string;
  ownerId: number;
  propertyType: string;
  propertyId: number;
}

const insertLink = (db: SqlDatabase, link: Link) =>
  qb(db)
    .insertInto('links')
    .values(link)
    .onConflict((oc) => oc.doNothing());

/** Adds a link (an existing one is kept). */
export async function addLink(db: SqlDatabase, link: Link): Promise<void> {
  await writeAsync(db, insertLink(db, link));
}

/** Adds many links (existing ones kept), in statements of at most 500 rows: the demo seed's links to its devices. */
export async function addLinks(db: SqlDatabase, links: readonly Link[]): Promise<void> {
  for (let i = 0; i < links.length; i += 500)
    await writeAsync(
      db,
      qb(db)
        .insertInto('links')
        .values(links.slice(i, i + 500))
        .onConflict((oc) => oc.doNothing()),
    );
}

export async function removeLink(db: SqlDatabase, link: Link): Promise<void> {
  await writeAsync(
    db,
    qb(db)
      .deleteFrom('links')
      .where('ownerType', '=', link.ownerType)
      .where('ownerId', '=', link.ownerId)
      .where('propertyType', '=', link.propertyType)
      .where('propertyId', '=', link.propertyId),
  );
}

const hasLinkQuery = (db: SqlDatabase, link: Link) =>
  qb(db)
    .selectFrom('links')
    .select('ownerId')
    .where('ownerType', '=', link.ownerType)
    .where('ownerId', '=', link.ownerId)
    .where('propertyType', '=', link.propertyType)
    .where('propertyId', '=', link.propertyId);

/** hasLink on the read pool (access.ts isManagerOf). */
export async function hasLinkAsync(db: SqlDatabase, link: Link): Promise<boolean> {
  return !!(await rowAsync(db, hasLinkQuery(db, link)));
}

const propertiesOf = (db: SqlDatabase, ownerType: string, ownerId: number, propertyType: string) =>
  qb(db)
    .selectFrom('links')
    .select('propertyId')
    .where('ownerType', '=', ownerType)
    .where('ownerId', '=', ownerId)
    .where('propertyType', '=', propertyType);

/** linkedPropertyIds on the read pool (the device list's scope: traccar/accessReads.ts). */
export async function linkedPropertyIdsAsync(
  db: SqlDatabase,
  ownerType: string,
  ownerId: number,
  propertyType: string,
): Promise<number[]> {
  return (await rowsAsync(db, propertiesOf(db, ownerType, ownerId, propertyType))).map((r) => r.propertyId);
}

/** The ids of the owners of one type linked to a property, on the read pool. */
export async function linkOwnerIdsAsync(
  db: SqlDatabase,
  ownerType: string,
  propertyType: string,
  propertyId: number,
): Promise<number[]> {
  const found = await rowsAsync(
    db,
    qb(db)
      .selectFrom('links')
      .select('ownerId')
      .where('ownerType', '=', ownerType)
      .where('propertyType', '=', propertyType)
      .where('propertyId', '=', propertyId),
  );
  return found.map((r) => r.ownerId);
}

/** Links of one owner and property type, narrowed to one owner or property when given (0: any): on the read pool. */
export function linkPairsAsync(
  db: SqlDatabase,
  ownerType: string,
  propertyType: string,
  ownerId: number,
  propertyId: number,
): Promise<Array<{ ownerId: number; propertyId: number }>> {
  let q = qb(db)
    .selectFrom('links')
    .select(['ownerId', 'propertyId'])
    .where('ownerType', '=', ownerType)
    .where('propertyType', '=', propertyType);
  if (ownerId !== 0) q = q.where('ownerId', '=', ownerId);
  if (propertyId !== 0) q = q.where('propertyId', '=', propertyId);
  return rowsAsync(db, q.orderBy('ownerId').orderBy('propertyId'));
}

const usersOfDeviceQuery = (db: SqlDatabase, deviceId: number, groupIds: readonly number[]) =>
  qb(db)
    .selectFrom('links')
    .select('ownerId as id')
    .where('ownerType', '=', 'user')
    .where('propertyType', '=', 'device')
    .where('propertyId', '=', deviceId)
    .union(
      qb(db)
        .selectFrom('links')
        .select('ownerId as id')
        .where('ownerType', '=', 'user')
        .where('propertyType', '=', 'group')
        .where(anyOf(db, 'propertyId', groupIds)),
    );

/** usersOfDevice on the read pool. */
export async function usersOfDeviceAsync(
  db: SqlDatabase,
  deviceId: number,
  groupIds: readonly number[],
): Promise<number[]> {
  return (await rowsAsync(db, usersOfDeviceQuery(db, deviceId, groupIds))).map((r) => r.id);
}

const propertiesOfUserAndGroupsQuery = (
  db: SqlDatabase,
  userId: number,
  propertyType: string,
  groupIds: readonly number[],
) =>
  qb(db)
    .selectFrom('links')
    .select('propertyId as id')
    .where('ownerType', '=', 'user')
    .where('ownerId', '=', userId)
    .where('propertyType', '=', propertyType)
    .union(
      qb(db)
        .selectFrom('links')
        .select('propertyId as id')
        .where('ownerType', '=', 'group')
        .where('propertyType', '=', propertyType)
        .where(anyOf(db, 'ownerId', groupIds)),
    );

/** propertiesOfUserAndGroups on the read pool (access.ts visibleIds). */
export async function propertiesOfUserAndGroupsAsync(
  db: SqlDatabase,
  userId: number,
  propertyType: string,
  groupIds: readonly number[],
): Promise<number[]> {
  return (await rowsAsync(db, propertiesOfUserAndGroupsQuery(db, userId, propertyType, groupIds))).map(
    (r) => r.id,
  );
}

/** How many distinct devices the owners have (a reseller's subtree), on the read pool. */
export async function distinctDevicesOfAsync(db: SqlDatabase, ownerIds: readonly number[]): Promise<number> {
  const found = await rowAsync(
    db,
    qb(db)
      .selectFrom('links')
      .select((eb) => eb.fn.count<number>('propertyId').distinct().as('n'))
      .where('ownerType', '=', 'user')
      .where('propertyType', '=', 'device')
      .where(anyOf(db, 'ownerId', ownerIds)),
  );
  return Number(found?.n ?? 0);
}

const managedSubtreeQuery = (db: SqlDatabase, rootId: number, maxDepth: number) =>
  qb(db)
    .withRecursive('below(id, depth)', (w) =>
      w
        .selectFrom('links')
        .select(['propertyId as id', sql<number>`1`.as('depth')])
        .where('ownerType', '=', 'user')
        .where('ownerId', '=', rootId)
        .where('propertyType', '=', 'managedUser')
        .union(
          w
            .selectFrom('links as l')
            .innerJoin('below as b', 'l.ownerId', 'b.id')
            .select(['l.propertyId as id', sql<number>`b.depth + 1`.as('depth')])
            .where('l.ownerType', '=', 'user')
            .where('l.propertyType', '=', 'managedUser')
            .where('b.depth', '<', maxDepth),
        ),
    )
    .selectFrom('below')
    .select('id')
    .distinct()
    .where('id', '!=', rootId);

/** Every user below `rootId` through managedUser links, at most `maxDepth` levels down (the root excluded), on the
 * read pool (a reseller's caps and subtree: traccar/resellers.ts). */
export async function managedSubtreeIdsAsync(
  db: SqlDatabase,
  rootId: number,
  maxDepth: number,
): Promise<number[]> {
  return (await rowsAsync(db, managedSubtreeQuery(db, rootId, maxDepth))).map((r) => r.id);
}

const selfAndManagersQuery = (db: SqlDatabase, userId: number, maxDepth: number) =>
  qb(db)
    .withRecursive('above(id, depth)', (w) =>
      w
        .selectNoFrom((eb) => [
          eb.cast<number>(eb.val(userId), 'bigint').as('id'),
          sql<number>`0`.as('depth'),
        ])
        .union(
          w
            .selectFrom('links as l')
            .innerJoin('above as a', 'l.propertyId', 'a.id')
            .select(['l.ownerId as id', sql<number>`a.depth + 1`.as('depth')])
            .where('l.ownerType', '=', 'user')
            .where('l.propertyType', '=', 'managedUser')
            .where('a.depth', '<', maxDepth),
        ),
    )
    .selectFrom('above')
    .select((eb) => ['id', eb.fn.min('depth').as('depth')])
    .groupBy('id')
    .orderBy('depth');

/** The user and every user above it through managedUser links, at most `maxDepth` levels up, nearest first, on the
 * read pool (the resellers above a user: traccar/resellers.ts). */
export async function selfAndManagerIdsAsync(
  db: SqlDatabase,
  userId: number,
  maxDepth: number,
): Promise<number[]> {
  return (await rowsAsync(db, selfAndManagersQuery(db, userId, maxDepth))).map((r) => r.id);
}

/** Removes every link that names object `id` as one of `types`, on either side: how many were removed. */
export async function removeLinksNaming(
  db: SqlDatabase,
  types: readonly string[],
  id: number,
): Promise<number> {
  let n = 0;
  for (const t of types) {
    n += await writeAsync(
      db,
      qb(db)
        .deleteFrom('links')
        .where((eb) =>
          eb.or([
            eb.and([eb('ownerType', '=', t), eb('ownerId', '=', id)]),
            eb.and([eb('propertyType', '=', t), eb('propertyId', '=', id)]),
          ]),
        ),
    );
  }
  return n;
}
