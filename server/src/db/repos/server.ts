// The server settings row (table server, id 1): the reads of traccar/server.ts, access.ts, authorize.ts and
// refusal.ts and the settings' update, typed and compiled per dialect.
import type { Selectable, Updateable } from 'kysely';
import type { ServerRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { qb, rowAsync, writeAsync } from './query.ts';

export type ServerSettings = Selectable<ServerRow>;

/** The server settings row, on the read pool (GET/PUT /api/server). */
export function serverSettingsAsync(db: SqlDatabase): Promise<ServerSettings | undefined> {
  return rowAsync(db, qb(db).selectFrom('server').selectAll().where('id', '=', 1));
}

/** The restrictions and switches every request's gate reads, with the attributes (JSON text). */
export type ServerFlagsRow = Pick<
  ServerSettings,
  | 'readonly'
  | 'deviceReadonly'
  | 'limitCommands'
  | 'disableReports'
  | 'fixedEmail'
  | 'registration'
  | 'attributes'
>;

const serverFlagsQuery = (db: SqlDatabase) =>
  qb(db)
    .selectFrom('server')
    .select([
      'readonly',
      'deviceReadonly',
      'limitCommands',
      'disableReports',
      'fixedEmail',
      'registration',
      'attributes',
    ])
    .where('id', '=', 1);

/** The gate's flags on the read pool (authorize.ts, access.ts serverFlagsAsync). */
export function serverFlagsRowAsync(db: SqlDatabase): Promise<ServerFlagsRow | undefined> {
  return rowAsync(db, serverFlagsQuery(db));
}

const serverAttributesQuery = (db: SqlDatabase) =>
  qb(db).selectFrom('server').select('attributes').where('id', '=', 1);

/** The server's attributes (JSON text) on the read pool (the refusal language, billing, the scheduled reports) or a transaction's handle (the demo seed). */
export async function serverAttributesTextAsync(db: SqlDatabase): Promise<string | undefined> {
  return (await rowAsync(db, serverAttributesQuery(db)))?.attributes;
}

/** Writes the given settings columns (the API's PUT /api/server; the demo seed writes in its transaction). */
export async function updateServerSettingsAsync(
  db: SqlDatabase,
  values: Record<string, unknown>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await writeAsync(
    db,
    qb(db)
      .updateTable('server')
      .set(values as Updateable<ServerRow>)
      .where('id', '=', 1),
  );
}

/**
 * A round trip to the store's read pool (the health check): throws when the store cannot answer (on PostgreSQL a
 * lost connection fails at once: db/pool.ts). A pool whose every connection is busy (reports waiting on a lock)
 * still answers as alive after `busyMs`: its connections are up, and the check must not wait for the longest read.
 */
export async function pingStoreAsync(db: SqlDatabase, busyMs = 500): Promise<void> {
  const ping = rowAsync(
    db,
    qb(db).selectNoFrom((eb) => eb.val(1).as('ok')),
  );
  let timer: NodeJS.Timeout | undefined;
  const busy = new Promise<void>((resolve) => (timer = setTimeout(resolve, busyMs)));
  try {
    await Promise.race([ping, busy]);
  } finally {
    clearTimeout(timer);
    ping.catch(() => undefined); // a failure after busyMs is not this check's (and never unhandled)
  }
}
