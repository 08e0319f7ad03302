// One CRUD mechanism for the Traccar object resources (CONTRACT §1, §4, §6): list with the contract's filters,
// get, create (creator linked), full-replacement update, delete (links removed). A resource is described by a
// ResourceDef: table, column mapping, zod schema, link stem, list kind, search/sort columns and the few hooks
// where behaviour really differs (device limits, group cycles, unique ids).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { queryFlag, queryIdList, queryInt } from '@rastro/domain';
import type { AppContext } from '../context.ts';
import { uniqueViolation, type SqlDatabase } from '../db/sql.ts';
import type { TableWithId } from '../db/repos/catalog.ts';
import { deviceIdsByIdsOrUniqueIds } from '../db/repos/devices.ts';
import { addLink, linkedPropertyIdsAsync, removeLinksNaming } from '../db/repos/links.ts';
import { inTransaction } from '../db/repos/query.ts';
import {
  deleteObject,
  findObjectAsync,
  insertObjectAsync,
  listObjects,
  updateObjectAsync,
  type LinkedDevices,
  type ObjectListOptions,
} from '../db/repos/objects.ts';
import { badRequest, notFound } from '../errors.ts';
import { requireUser, type UserRow } from './auth.ts';
import {
  CLASS_OF,
  checkSee,
  checkUserAccess,
  checkWrite,
  GROUP_DEPTH,
  objectExists,
  permissionsChanged,
  visibleIds,
} from './access.ts';
import { visibleDeviceIdsAsync } from './accessReads.ts';
import { logAction } from './audit.ts';
import { heldRows } from './heldRows.ts';
import { heldAnswer, listAnswer, mapAnswer } from './listAnswer.ts';
import { rowJsonSql } from './rowJsonSql.ts';
import { edge, edgeValue, idParams } from '../edge.ts';
import { inputToRow, rowToJson, type Columns, type Json, type Row } from './model.ts';

export type ListKind = 'simple' | 'extended' | 'devices';

export interface ResourceDef {
  /** URL path under /api, e.g. "devices", "attributes/computed". */
  path: string;
  table: TableWithId;
  /** Link stem (CONTRACT §3 permission key without "Id"). */
  type: string;
  columns: Columns;
  schema: z.ZodType<Record<string, unknown>>;
  listKind: ListKind;
  sort: string;
  search: string[];
  /** Extra check class for writes: device ⇒ deviceReadonly, command ⇒ limitCommands, attribute ⇒ admin only. */
  writeKind?: 'device' | 'command' | 'attribute';
  /** Reference fields checked on write: value 0 = none; else the object must exist and be visible. */
  refs?: Array<{ field: string; type: string }>;
  /** Columns whose stored value survives a PUT (read-only/derived fields). */
  keep?: string[];
  /** Column values on create for fields the body cannot set. */
  createValues?: Record<string, unknown>;
  toJson?: (row: Row, excludeAttributes: boolean) => Json;
  /**
   * SQLite expressions (column → JSON value) for the fields `toJson` changes, so that long lists are made by the
   * query (rowJsonSql.ts). A resource with its own toJson and none of these is listed through toJson.
   */
  jsonOverrides?: Record<string, string>;
  beforeCreate?: (
    ctx: AppContext,
    user: UserRow,
    input: Record<string, unknown>,
    req: FastifyRequest,
  ) => void | Promise<void>;
  /** Input rules beyond the schema; `who` lets a refusal be written in the caller's language. */
  validate?: (
    ctx: AppContext,
    input: Record<string, unknown>,
    existing: Row | null,
    who: { req: FastifyRequest; user: UserRow },
  ) => void | Promise<void>;
  /** Whether a change of this object can change who sees which device (devices' group, groups' parent). */
  affectsVisibility?: (input: Record<string, unknown>, existing: Row | null) => boolean;
  /**
   * What else goes with a deleted object, written through `tx`, the delete's transaction (its rows, the references
   * to it): asynchronous statements only (db/repos/query.ts inTransaction).
   */
  onDelete?: (tx: SqlDatabase, id: number) => Promise<void>;
}

export const listQuery = z.object({
  all: queryFlag,
  userId: queryInt(1),
  deviceId: queryInt(1),
  groupId: queryInt(1),
  id: queryIdList,
  uniqueId: z
    .union([z.string().max(256), z.array(z.string().max(256)).max(10_000)])
    .optional()
    .transform((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]).map((s) => s.trim())),
  keyword: z.string().max(256).optional(),
  limit: queryInt(0),
  offset: queryInt(0),
  excludeAttributes: queryFlag,
  refresh: z.unknown().optional(),
});
export type ListQuery = z.output<typeof listQuery>;

/**
 * Reads rows of `table` restricted to `ids` ('all' = no restriction) with keyword search, sort and paging (`only`
 * 'id': their ids alone), on the read pool.
 */
export async function selectRows(
  ctx: AppContext,
  table: TableWithId,
  ids: number[] | 'all' | LinkedDevices,
  opts: ObjectListOptions,
  only: 'id' | 'all' = 'all',
): Promise<Row[]> {
  return (await listObjects(ctx.store.sql, table, ids, opts, only)) as Row[];
}

function directLinks(
  ctx: AppContext,
  ownerType: string,
  ownerId: number,
  propertyType: string,
): Promise<number[]> {
  return linkedPropertyIdsAsync(ctx.store.sql, ownerType, ownerId, propertyType);
}

/**
 * The ids a list request may return, per CONTRACT §4's filters. The device list's scope is read on the read pool
 * (accessReads.ts), or, for the devices linked to the caller (the web app's list), is a condition of the list's own
 * statement (repos/objects.ts LinkedDevices: one read fewer, issue #30); the other resources' visibility through
 * access.ts.
 */
async function listIds(
  ctx: AppContext,
  user: UserRow,
  def: ResourceDef,
  q: ListQuery,
): Promise<number[] | 'all' | LinkedDevices> {
  if (def.listKind === 'devices') {
    if (q.id.length || q.uniqueId.length) {
      const wanted = await deviceIdsByIdsOrUniqueIds(ctx.store.sql, q.id, q.uniqueId);
      if (user.administrator) return wanted;
      const visible = new Set(await visibleDeviceIdsAsync(ctx, user));
      return wanted.filter((id) => visible.has(id));
    }
    const linked: LinkedDevices = { linkedTo: user.id, depth: GROUP_DEPTH };
    if (q.all) return user.administrator ? 'all' : linked;
    if (q.userId !== undefined) {
      await checkUserAccess(ctx, user, q.userId);
      return directLinks(ctx, 'user', q.userId, 'device');
    }
    if (q.deviceId !== undefined) {
      await checkSee(ctx, user, 'device', q.deviceId);
      return directLinks(ctx, 'device', q.deviceId, 'linkedDevice');
    }
    return linked;
  }
  if (q.all) return user.administrator ? 'all' : await visibleIds(ctx, user.id, def.type);
  if (q.userId !== undefined) {
    await checkUserAccess(ctx, user, q.userId);
    return def.listKind === 'simple'
      ? await visibleIds(ctx, q.userId, def.type)
      : directLinks(ctx, 'user', q.userId, def.type);
  }
  if (def.listKind === 'extended' && q.deviceId !== undefined) {
    await checkSee(ctx, user, 'device', q.deviceId);
    return directLinks(ctx, 'device', q.deviceId, def.type);
  }
  if (def.listKind === 'extended' && q.groupId !== undefined) {
    await checkSee(ctx, user, 'group', q.groupId);
    return directLinks(ctx, 'group', q.groupId, def.type);
  }
  return await visibleIds(ctx, user.id, def.type);
}

/** Loads one object for a single-object request: non-admins need visibility (400), missing ⇒ 404. */
export async function loadForUser(
  ctx: AppContext,
  user: UserRow,
  table: TableWithId,
  type: string,
  id: number,
): Promise<Row> {
  await checkSee(ctx, user, type, id);
  const row = await getRowAsync(ctx, table, id);
  if (!row) throw notFound(`${CLASS_OF[type] ?? 'Object'} ${id} not found`);
  return row;
}

/** Reference fields (groupId, calendarId, commandId): new or changed ones must exist and be visible. */
export async function checkRefs(
  ctx: AppContext,
  user: UserRow,
  refs: ResourceDef['refs'],
  input: Record<string, unknown>,
  existing: Row | null = null,
): Promise<void> {
  for (const ref of refs ?? []) {
    const value = input[ref.field];
    if (typeof value !== 'number' || value === 0) continue;
    // As Traccar: an unchanged reference is not re-checked on update.
    if (existing && existing[ref.field] === value) continue;
    await checkSee(ctx, user, ref.type, value);
    if (!(await objectExists(ctx, ref.type, value)))
      throw badRequest(`${ref.field}: ${CLASS_OF[ref.type]} ${value} not found`);
  }
}

/** Removes every link that names the object, on either side, through `db` (the store or a transaction's handle). */
export function deleteLinksOf(db: SqlDatabase, types: string[], id: number): Promise<number> {
  return removeLinksNaming(db, types, id);
}

function linkCreator(db: SqlDatabase, userId: number, type: string, id: number): Promise<void> {
  return addLink(db, { ownerType: 'user', ownerId: userId, propertyType: type, propertyId: id });
}

const duplicate = (err: unknown) => {
  const field = uniqueViolation(err);
  return field ? badRequest(`Duplicate ${field}`) : err;
};

/** Turns an asynchronous write's unique-constraint failures (either store) into a 400 naming the field. */
export async function uniqueGuardAsync<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw duplicate(err);
  }
}

/** Writes the given columns of one row, without the event loop waiting (a duplicate answered 400). */
export function updateRow(
  ctx: AppContext,
  table: TableWithId,
  id: number,
  values: Record<string, unknown>,
): Promise<void> {
  return uniqueGuardAsync(() => updateObjectAsync(ctx.store.sql, table, id, values));
}

/** One row by id, read on the pool (issue #30: the CRUD's reads leave the main thread free on PostgreSQL). */
export async function getRowAsync(ctx: AppContext, table: TableWithId, id: number): Promise<Row | undefined> {
  return (await findObjectAsync(ctx.store.sql, table, id)) as Row | undefined;
}

/** Registers list/get/create/update/delete for one resource. */
export function registerResource(app: FastifyInstance, ctx: AppContext, def: ResourceDef): void {
  const base = `/api/${def.path}`;
  const toJson = def.toJson ?? ((row: Row, ex: boolean) => rowToJson(def.columns, row, ex));
  const sqlJson = !def.toJson || def.jsonOverrides;
  const jsonSql = [false, true].map((ex) =>
    sqlJson ? rowJsonSql(def.columns, ex, def.jsonOverrides) : undefined,
  );
  const aliases = def.type === 'device' ? ['device', 'linkedDevice'] : [def.type];
  /** Each held row's JSON text (heldAnswer), with its attributes and without. */
  const heldJson = [new WeakMap<Row, string>(), new WeakMap<Row, string>()];

  app.get(
    base,
    edge({ query: listQuery, need: 'table' }),
    async (req: FastifyRequest, reply: FastifyReply) => {
      const user = await requireUser(ctx, req);
      const q = edgeValue(listQuery, req.query);
      const ids = await listIds(ctx, user, def, q);
      const opts = {
        search: def.search,
        sort: def.sort,
        keyword: q.keyword,
        limit: q.limit,
        offset: q.offset,
      };
      const map = (r: Row) => toJson(r, q.excludeAttributes);
      // rows held in memory (the devices, heldRows.ts): their ids read, each row's text made once per change of it;
      // else PostgreSQL: the rows in one read on the pool, then mapped (listAnswer.ts mapAnswer); SQLite: ids, then
      // the rows' JSON a slice at a time, made by the query where it can
      const held = heldRows(ctx, def.table);
      const json = held
        ? await heldAnswer(
            ctx,
            def.table,
            await selectRows(ctx, def.table, ids, opts, 'id'),
            map,
            held,
            heldJson[q.excludeAttributes ? 1 : 0],
          )
        : ctx.store.sql.dialect === 'sqlite'
          ? await listAnswer(
              ctx,
              def.table,
              await selectRows(ctx, def.table, ids, opts, 'id'),
              map,
              jsonSql[q.excludeAttributes ? 1 : 0],
            )
          : await mapAnswer(await selectRows(ctx, def.table, ids, opts), map);
      return reply.type('application/json; charset=utf-8').send(json);
    },
  );

  const byId = edge({ params: idParams, need: 'table' });
  const pathId = (req: FastifyRequest) => edgeValue(idParams, req.params).id;
  app.get(`${base}/:id`, byId, async (req) => {
    const user = await requireUser(ctx, req);
    return toJson(await loadForUser(ctx, user, def.table, def.type, pathId(req)), false);
  });

  app.post(base, edge({ body: def.schema, need: 'table' }), async (req) => {
    const user = await requireUser(ctx, req);
    await checkWrite(ctx, user, def.writeKind);
    const input = edgeValue(def.schema, req.body);
    await def.beforeCreate?.(ctx, user, input, req);
    await checkRefs(ctx, user, def.refs, input);
    await def.validate?.(ctx, input, null, { req, user });
    const values = { ...inputToRow(def.columns, input), ...def.createValues };
    // the row and its creator's link commit together (issue #30: on the write client on PostgreSQL)
    const id = await uniqueGuardAsync(() =>
      inTransaction(ctx.store.sql, async (tx) => {
        const newId = await insertObjectAsync(tx, def.table, values);
        await linkCreator(tx, user.id, def.type, newId);
        return newId;
      }),
    );
    permissionsChanged(ctx, def.type === 'device' ? [id] : undefined);
    await logAction(ctx, req, user.id, 'create', def.type, id);
    return toJson((await getRowAsync(ctx, def.table, id))!, false);
  });

  app.put(`${base}/:id`, edge({ params: idParams, body: def.schema, need: 'table' }), async (req) => {
    const user = await requireUser(ctx, req);
    const id = pathId(req);
    await checkWrite(ctx, user, def.writeKind);
    const input = edgeValue(def.schema, req.body);
    if (input.id !== id) throw badRequest('body id must equal the path id');
    const existing = await loadForUser(ctx, user, def.table, def.type, id);
    await checkRefs(ctx, user, def.refs, input, existing);
    await def.validate?.(ctx, input, existing, { req, user });
    const values = inputToRow(def.columns, input);
    for (const k of def.keep ?? []) values[k] = existing[k];
    await updateRow(ctx, def.table, id, values);
    if (def.affectsVisibility?.(input, existing))
      permissionsChanged(ctx, def.type === 'device' ? [id] : undefined);
    await logAction(ctx, req, user.id, 'edit', def.type, id);
    return toJson((await getRowAsync(ctx, def.table, id))!, false);
  });

  app.delete(`${base}/:id`, byId, async (req, reply) => {
    const user = await requireUser(ctx, req);
    const id = pathId(req);
    await checkWrite(ctx, user, def.writeKind);
    await loadForUser(ctx, user, def.table, def.type, id);
    // the row, its links and what its onDelete removes go together, or nothing does
    await inTransaction(ctx.store.sql, async (tx) => {
      await deleteObject(tx, def.table, id);
      await deleteLinksOf(tx, aliases, id);
      await def.onDelete?.(tx, id);
    });
    permissionsChanged(ctx);
    await logAction(ctx, req, user.id, 'remove', def.type, id);
    return reply.status(204).send();
  });
}
