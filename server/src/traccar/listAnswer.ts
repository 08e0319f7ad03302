// A list answer built in slices: the rows of a long list (10,000 devices are 5 MB of JSON) are read and serialised
// a slice at a time, and between slices the event loop serves whatever else is waiting (the web app's files, the
// live socket, trackers' reports) instead of stalling for the whole list (bench/results/map.md, session 12).
import type { AppContext } from '../context.ts';
import type { Json, Row } from './model.ts';

/** Rows per slice of a list answer: 1,000 held the loop 30–60 ms a slice on this 2-core machine (session 13). */
export const LIST_SLICE = 250;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The JSON array of `table`'s rows with the given ids, in that order, each through `toJson`. A row deleted while
 * the answer is being built is left out; each row is read whole at one moment.
 */
export async function listAnswer(
  ctx: AppContext,
  table: string,
  idRows: Row[],
  toJson: (row: Row) => Json,
): Promise<string> {
  const ids = idRows.map((r) => r.id as number);
  const read = ctx.store.sql.prepare(`SELECT * FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`);
  const parts: string[] = [];
  for (let i = 0; i < ids.length; i += LIST_SLICE) {
    if (i > 0) await nextTurn();
    const slice = ids.slice(i, i + LIST_SLICE);
    const byId = new Map((read.all(JSON.stringify(slice)) as Row[]).map((r) => [r.id as number, r]));
    const json: Json[] = [];
    for (const id of slice) {
      const row = byId.get(id);
      if (row) json.push(toJson(row));
    }
    if (json.length) parts.push(JSON.stringify(json).slice(1, -1));
  }
  return `[${parts.join(',')}]`;
}
