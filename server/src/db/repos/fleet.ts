// Devices and groups as the access rules walk them (traccar/access.ts): sub-groups, parents, devices of groups.
// Typed and compiled per dialect; the devices' and groups' CRUD stays in traccar/crud.ts for now. All read on the
// read pool (db/pool.ts); the synchronous twins went in session 34 (issue #30).
import type { SqlDatabase } from '../sql.ts';
import { anyOf, qb, rowAsync, rowsAsync } from './query.ts';

const childGroupsQuery = (db: SqlDatabase, parentIds: readonly number[]) =>
  qb(db)
    .selectFrom('groups')
    .select('id')
    .where(anyOf(db, 'groupId', parentIds));

/** The groups whose parent is one of `parentIds`. */
export async function childGroupIdsAsync(db: SqlDatabase, parentIds: readonly number[]): Promise<number[]> {
  return (await rowsAsync(db, childGroupsQuery(db, parentIds))).map((r) => r.id);
}

const parentQuery = (db: SqlDatabase, id: number) =>
  qb(db).selectFrom('groups').select('groupId').where('id', '=', id);

/** A group's parent (0: none), undefined when there is no such group. */
export async function parentGroupIdAsync(db: SqlDatabase, id: number): Promise<number | undefined> {
  return (await rowAsync(db, parentQuery(db, id)))?.groupId;
}

const devicesInGroupsQuery = (db: SqlDatabase, groupIds: readonly number[]) =>
  qb(db)
    .selectFrom('devices')
    .select('id')
    .where(anyOf(db, 'groupId', groupIds));

export async function deviceIdsInGroupsAsync(
  db: SqlDatabase,
  groupIds: readonly number[],
): Promise<number[]> {
  return (await rowsAsync(db, devicesInGroupsQuery(db, groupIds))).map((r) => r.id);
}

export async function allDeviceIdsAsync(db: SqlDatabase): Promise<number[]> {
  return (await rowsAsync(db, qb(db).selectFrom('devices').select('id'))).map((r) => r.id);
}

const deviceGroupQuery = (db: SqlDatabase, id: number) =>
  qb(db).selectFrom('devices').select('groupId').where('id', '=', id);

/** A device's group (0: none), undefined when there is no such device. */
export async function deviceGroupIdAsync(db: SqlDatabase, id: number): Promise<number | undefined> {
  return (await rowAsync(db, deviceGroupQuery(db, id)))?.groupId;
}
