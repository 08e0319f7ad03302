// A list answer built in slices: the rows of a long list (10,000 devices are 5 MB of JSON) are read and serialised
// a slice at a time, and between slices the event loop serves whatever else is waiting (the web app's files, the
// live socket, trackers' reports) instead of stalling for the whole list (bench/results/map.md, session 12). On
// SQLite, a row's JSON text is made by the query itself where the resource says how (rowJsonSql.ts): a third of
// the work (session 16). On PostgreSQL the list's rows are read on the read pool (db/pool.ts, session 23) in one
// statement and mapped in slices (mapAnswer, session 26): during an ingestion flood each read or turn a request waits
// for is one more batch run before it, and 1,000 devices read as ids then four slices of rows took six of them.
import type { AppContext } from '../context.ts';
import type { TableWithId } from '../db/repos/catalog.ts';
import { objectJsonByIds, objectsByIds } from '../db/repos/objects.ts';
import type { HeldRows } from './heldRows.ts';
import type { Json, Row } from './model.ts';

/** Rows per slice mapped in JS: 1,000 held the loop 30–60 ms a slice on this 2-core machine (session 13). */
export const LIST_SLICE = 250;
/**
 * Rows per slice mapped in JS from rows already read (mapAnswer): 1,000 devices take ~4 ms on this machine (session
 * 26, instrumented flood: 250 took 0.8–1.4 ms), as much as SQLite's slice of JSON made by the query.
 */
export const MAP_SLICE = 1000;
/** Rows per slice whose JSON SQLite makes: 1,000 of them hold the loop ~6 ms. */
export const SQL_LIST_SLICE = 1000;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The JSON array of rows already read (in the list's order), each through `toJson`, MAP_SLICE rows at a time with
 * the event loop free between slices. PostgreSQL's lists: the rows are read in one statement on the pool, one
 * snapshot, so a list of up to MAP_SLICE rows is answered after one read and one mapping, with no turn between.
 */
export async function mapAnswer(rows: readonly Row[], toJson: (row: Row) => Json): Promise<string> {
  const parts: string[] = [];
  for (let i = 0; i < rows.length; i += MAP_SLICE) {
    if (i > 0) await nextTurn();
    for (const row of rows.slice(i, i + MAP_SLICE)) parts.push(JSON.stringify(toJson(row)));
  }
  return `[${parts.join(',')}]`;
}

/**
 * The JSON array of `table`'s rows with the given ids, in that order, each through `toJson`, or on SQLite as
 * `jsonSql` (rowJsonSql.ts: the same JSON, NULL where the row needs `toJson`). A row deleted while the answer is
 * being built is left out; each row is read whole at one moment.
 */
export async function listAnswer(
  ctx: AppContext,
  table: TableWithId,
  idRows: Row[],
  toJson: (row: Row) => Json,
  jsonSql?: string,
): Promise<string> {
  const ids = idRows.map((r) => r.id as number);
  const db = ctx.store.sql;
  /** The rows with these ids, read on the read pool (a failure is answered where it is awaited). */
  const read = (slice: number[]) => {
    const found = objectsByIds(db, table, slice) as Promise<Row[]>;
    found.catch(() => undefined);
    return found;
  };
  /** Each found row's JSON text by id, mapped in JS. */
  const mapInJs = async (found: Promise<Row[]>) =>
    new Map((await found).map((r) => [r.id, JSON.stringify(toJson(r))]));
  const sqliteJson = !!jsonSql && db.dialect === 'sqlite';
  const sliceSize = sqliteJson ? SQL_LIST_SLICE : LIST_SLICE;
  const slices: number[][] = [];
  for (let i = 0; i < ids.length; i += sliceSize) slices.push(ids.slice(i, i + sliceSize));
  const answerSlice = async (k: number): Promise<Map<number, string | undefined>> => {
    if (!sqliteJson) {
      // the next slice's rows are asked for before this one is mapped: each read waited for is one more turn of
      // a busy event loop, so they overlap
      const found = ahead ?? read(slices[k]);
      ahead = k + 1 < slices.length ? read(slices[k + 1]) : null;
      return mapInJs(found);
    }
    const slice = slices[k];
    const found = await objectJsonByIds(db, table, jsonSql!, slice);
    const byId = new Map(found.map((r) => [r.id, r.json]));
    const jsOnly = slice.filter((id) => byId.get(id) === null);
    const mapped = jsOnly.length ? await mapInJs(read(jsOnly)) : new Map<number, string>();
    return new Map(slice.map((id) => [id, byId.get(id) ?? mapped.get(id)]));
  };
  let ahead: Promise<Row[]> | null = null;
  const parts: string[] = [];
  for (const [k, slice] of slices.entries()) {
    if (k > 0) await nextTurn();
    const byId = await answerSlice(k);
    for (const id of slice) {
      const json = byId.get(id);
      if (json) parts.push(json);
    }
  }
  return `[${parts.join(',')}]`;
}

/**
 * The JSON array of rows held in memory (heldRows.ts: the devices with their live state), for the ids read in the
 * list's order: each row's text made once per row object (`memo`: a row that did not change is the same object), a
 * row not held read from the store, one deleted meanwhile left out. MAP_SLICE rows are written per turn of the
 * event loop.
 */
export async function heldAnswer(
  ctx: AppContext,
  table: TableWithId,
  idRows: Row[],
  toJson: (row: Row) => Json,
  held: HeldRows,
  memo: WeakMap<Row, string>,
): Promise<string> {
  const ids = idRows.map((r) => r.id as number);
  const rows = await held.rows(ids);
  const missing = ids.filter((_, i) => !rows[i]);
  const read = missing.length
    ? new Map(((await objectsByIds(ctx.store.sql, table, missing)) as Row[]).map((r) => [r.id, r]))
    : null;
  const parts: string[] = [];
  for (let i = 0; i < ids.length; i++) {
    if (i > 0 && i % MAP_SLICE === 0) await nextTurn();
    const row = rows[i];
    if (!row) {
      const stored = read?.get(ids[i]);
      if (stored) parts.push(JSON.stringify(toJson(stored)));
      continue;
    }
    let json = memo.get(row);
    if (json === undefined) memo.set(row, (json = JSON.stringify(toJson(row))));
    parts.push(json);
  }
  return `[${parts.join(',')}]`;
}
