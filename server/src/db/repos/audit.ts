// The audit trail and the statistics' sources (tables actions and request_stats, positions counted per local
// day): the queries of traccar/audit.ts, typed and compiled per dialect.
import type { OffsetPeriod } from '@rastro/domain';
import { sql, type RawBuilder } from 'kysely';
import type { SqlDatabase, SqlDialect } from '../sql.ts';
import { qb, rowAsync, rowsAsync, writeAsync } from './query.ts';

export interface NewAction {
  actionTime: string;
  address: string | null;
  userId: number;
  actionType: string;
  objectType: string | null;
  objectId: number;
  attributes: string;
}

/**
 * Stores an action without the main thread waiting (issue #30: every action insert is this one since session 33):
 * the store, or a transaction's handle (its action commits with it).
 */
export async function insertActionAsync(db: SqlDatabase, action: NewAction): Promise<void> {
  await writeAsync(db, qb(db).insertInto('actions').values(action));
}

/**
 * Several hours' request counts as ONE autocommitted upsert, without the main thread waiting
 * (traccar/requestCounter.ts). On PostgreSQL it runs on the API's write client (db/pool.ts apiWriterOf), not on the
 * read pool: with two processes both upsert the same hour's row once a second, and the one that waits for the
 * other's row lock and COMMIT held a read connection meanwhile, the one the API's reads had left during a flood
 * (session 32). It holds that row lock only while PostgreSQL runs and commits it (decision 41's deadlock rule).
 */
export async function addRequestsAsync(
  db: SqlDatabase,
  counts: ReadonlyArray<readonly [string, number]>,
): Promise<void> {
  await writeAsync(
    db,
    qb(db)
      .insertInto('request_stats')
      .values(counts.map(([day, requests]) => ({ day, requests })))
      .onConflict((oc) =>
        oc.column('day').doUpdateSet((eb) => ({
          requests: eb('request_stats.requests', '+', eb.ref('excluded.requests')),
        })),
      ),
  );
}

/** Actions between two ISO times (both included) with their user's e-mail, oldest first, at most 50 000. */
export function actionsBetween(db: SqlDatabase, from: string, to: string) {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('actions as a')
      .leftJoin('users as u', 'u.id', 'a.userId')
      .selectAll('a')
      .select('u.email as userEmail')
      .where('a.actionTime', '>=', from)
      .where('a.actionTime', '<=', to)
      .orderBy('a.actionTime')
      .orderBy('a.id')
      .limit(50_000),
  );
}

/**
 * The advanced logs' actions between two ISO times (both included) with their user's e-mail, newest first, at most
 * `limit`: every action, a user's (done by it or on it), or a device's (done on it).
 */
export function actionsNewestFirst(
  db: SqlDatabase,
  from: string,
  to: string,
  scope: { kind: 'server' } | { kind: 'user' | 'device'; id: number },
  limit: number,
) {
  let q = qb(db)
    .selectFrom('actions as a')
    .leftJoin('users as u', 'u.id', 'a.userId')
    .selectAll('a')
    .select('u.email as userEmail')
    .where('a.actionTime', '>=', from)
    .where('a.actionTime', '<=', to);
  if (scope.kind === 'user') {
    const { id } = scope;
    q = q.where((eb) =>
      eb.or([eb('a.userId', '=', id), eb.and([eb('a.objectType', '=', 'user'), eb('a.objectId', '=', id)])]),
    );
  } else if (scope.kind === 'device')
    q = q.where('a.objectType', '=', 'device').where('a.objectId', '=', scope.id);
  return rowsAsync(db, q.orderBy('a.actionTime', 'desc').orderBy('a.id', 'desc').limit(limit));
}

/**
 * Whether any position, action or request count is older than `iso` (each probe stops at its first row; read on
 * the read pool, one after another, as a request handler's).
 */
export async function anyDataBefore(db: SqlDatabase, iso: string): Promise<boolean> {
  const b = qb(db);
  return !!(
    (await rowAsync(db, b.selectFrom('positions').select('id').where('serverTime', '<', iso).limit(1))) ??
    (await rowAsync(db, b.selectFrom('actions').select('id').where('actionTime', '<', iso).limit(1))) ??
    (await rowAsync(
      db,
      b.selectFrom('request_stats').select('day').where('day', '<', iso.slice(0, 13)).limit(1),
    ))
  );
}

/** The earliest position time, action time and request-count key (each null when its table is empty). */
export async function earliestData(db: SqlDatabase): Promise<unknown[]> {
  const b = qb(db);
  const found = await Promise.all([
    rowAsync(
      db,
      b.selectFrom('positions').select((eb) => eb.fn.min('serverTime').as('m')),
    ),
    rowAsync(
      db,
      b.selectFrom('actions').select((eb) => eb.fn.min('actionTime').as('m')),
    ),
    rowAsync(
      db,
      b.selectFrom('request_stats').select((eb) => eb.fn.min('day').as('m')),
    ),
  ]);
  return found.map((r) => r?.m);
}

/** The local date (YYYY-MM-DD) of the ISO time in `column` under the offset periods, in the store's dialect. */
function localDay(dialect: SqlDialect, column: string, periods: OffsetPeriod[]): RawBuilder<string> {
  const mod = (p: OffsetPeriod) => `${p.offsetMinutes >= 0 ? '+' : ''}${p.offsetMinutes} minutes`;
  const ref = sql.ref(column);
  const date = (p: OffsetPeriod) =>
    dialect === 'sqlite'
      ? sql<string>`date(${ref}, ${mod(p)})`
      : sql<string>`to_char(cast(${ref} as timestamptz) at time zone 'UTC' + cast(${mod(p)} as interval), 'YYYY-MM-DD')`;
  if (periods.length === 1) return date(periods[0]);
  const whens = periods
    .slice(0, -1)
    .map((p, i) => sql`when ${ref} < ${new Date(periods[i + 1].from).toISOString()} then ${date(p)}`);
  return sql<string>`case ${sql.join(whens, sql` `)} else ${date(periods[periods.length - 1])} end`;
}

/** Positions per local day in [lo, hi): how many and of how many devices. */
export function positionsPerDay(db: SqlDatabase, periods: OffsetPeriod[], lo: string, hi: string) {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('positions')
      .select((eb) => [
        localDay(db.dialect, 'serverTime', periods).as('day'),
        eb.fn.countAll<number>().as('n'),
        eb.fn.count<number>('deviceId').distinct().as('devices'),
      ])
      .where('serverTime', '>=', lo)
      .where('serverTime', '<', hi)
      .groupBy(sql.ref('day')),
  );
}

/** Positions per local day and protocol in [lo, hi). */
export function protocolsPerDay(db: SqlDatabase, periods: OffsetPeriod[], lo: string, hi: string) {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('positions')
      .select((eb) => [
        localDay(db.dialect, 'serverTime', periods).as('day'),
        eb.fn.coalesce('protocol', sql.lit('unknown')).as('protocol'),
        eb.fn.countAll<number>().as('n'),
      ])
      .where('serverTime', '>=', lo)
      .where('serverTime', '<', hi)
      .groupBy([sql.ref('day'), 'protocol']),
  );
}

/** Users who logged in, per local day in [lo, hi). */
export function loginsPerDay(db: SqlDatabase, periods: OffsetPeriod[], lo: string, hi: string) {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('actions')
      .select((eb) => [
        localDay(db.dialect, 'actionTime', periods).as('day'),
        eb.fn.count<number>('userId').distinct().as('n'),
      ])
      .where('actionType', '=', 'login')
      .where('actionTime', '>=', lo)
      .where('actionTime', '<', hi)
      .groupBy(sql.ref('day')),
  );
}

/** Request counts whose key (UTC hour, or day on older rows) lies in [lo, hi). */
export function requestCounts(db: SqlDatabase, lo: string, hi: string) {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('request_stats')
      .select(['day', 'requests'])
      .where('day', '>=', lo)
      .where('day', '<', hi),
  );
}
