// Positions of several devices after a time, newest first and bounded: what a page missed while its socket was
// reconnecting (live/catchup.ts, issue #30). One query on the (deviceId, fixTime) index, both dialects.
import type { SqlDatabase, SqlStatement } from './sql.ts';

const statements = new WeakMap<SqlDatabase, SqlStatement>();

/**
 * At most `limit` positions rows of the devices with a fix time after `after` (ISO, `…Z`), the newest first (the
 * caller reads them as live/json.ts PositionDbRow).
 */
export function positionsAfter(
  sql: SqlDatabase,
  deviceIds: readonly number[],
  after: string,
  limit: number,
): unknown[] {
  if (deviceIds.length === 0) return [];
  let stmt = statements.get(sql);
  if (!stmt) {
    stmt = sql.prepare(
      `SELECT * FROM positions WHERE deviceId IN (SELECT value FROM json_each(?)) AND fixTime > ?
       ORDER BY fixTime DESC, id DESC LIMIT ?`,
    );
    statements.set(sql, stmt);
  }
  return stmt.all(JSON.stringify(deviceIds), after, limit);
}
