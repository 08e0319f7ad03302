// Devices and groups as the access rules walk them (traccar/access.ts): sub-groups, parents, devices of groups.
// Typed and compiled per dialect; the devices' and groups' CRUD stays in traccar/crud.ts for now.
import type { SqlDatabase } from '../sql.ts';
import { anyOf, qb, row, rows } from './query.ts';

/** The groups whose parent is one of `parentIds`. */
export function childGroupIds(db: SqlDatabase, parentIds: readonly number[]): number[] {
  return rows(
    db,
    qb(db)
      .selectFrom('groups')
      .select('id')
      .where(anyOf(db, 'groupId', parentIds)),
  ).map((r) => r.id);
}

/** A group's parent (0: none), undefined when there is no such group. */
export function parentGroupId(db: SqlDatabase, id: number): number | undefined {
  return row(db, qb(db).selectFrom('groups').select('groupId').where('id', '=', id))?.groupId;
}

export function deviceIdsInGroups(db: SqlDatabase, groupIds: readonly number[]): number[] {
  return rows(
    db,
    qb(db)
      .selectFrom('devices')
      .select('id')
      .where(anyOf(db, 'groupId', groupIds)),
  ).map((r) => r.id);
}

export function allDeviceIds(db: SqlDatabase): number[] {
  return rows(db, qb(db).selectFrom('devices').select('id')).map((r) => r.id);
}

/** A device's group (0: none), undefined when there is no such device. */
export function deviceGroupId(db: SqlDatabase, id: number): number | undefined {
  return row(db, qb(db).selectFrom('devices').select('groupId').where('id', '=', id))?.groupId;
}
