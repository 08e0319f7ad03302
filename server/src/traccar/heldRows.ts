// Rows a list may take from memory instead of the store (issue #30): the live core holds every device's row and its
// live state (status, last update, latest position), so `GET /api/devices` reads only the ids it answers with (the
// access rules, the search, the order and the page stay the store's) and writes each row's JSON text once per change
// of the row (listAnswer.ts heldAnswer). During a flood of positions that list took a read of every row on the pool
// and their mapping on the main thread: on PostgreSQL 3.4–3.9 ms of the database's time and ~3 ms of the event loop
// per 1,000 devices (bench/stores.ts, session 39). The live layer passes its rows in at start (live/index.ts), so
// this layer never imports it; without it (gateway mode, no live core) lists read the store as before.
import type { AppContext } from '../context.ts';
import type { TableWithId } from '../db/repos/catalog.ts';
import type { Row } from './model.ts';

export interface HeldRows {
  /**
   * The rows with these ids as the store holds them (each device's live state in it), in the same order, undefined
   * for a row not held (created by another process a moment ago: read from the store). Resolves once what memory
   * holds is current (read again after a change); a row that did not change is the same object as before.
   */
  rows(ids: readonly number[]): Promise<Array<Row | undefined>>;
}

const sources = new WeakMap<AppContext, Map<TableWithId, HeldRows>>();

export function setHeldRows(ctx: AppContext, table: TableWithId, held: HeldRows): void {
  let byTable = sources.get(ctx);
  if (!byTable) sources.set(ctx, (byTable = new Map()));
  byTable.set(table, held);
}

export const heldRows = (ctx: AppContext, table: TableWithId): HeldRows | undefined =>
  sources.get(ctx)?.get(table);
