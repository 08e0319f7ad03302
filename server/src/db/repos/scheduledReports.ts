// Scheduled reports (table reports with a calendar, live/reports/scheduled.ts): the reports to run, their calendar,
// the period already sent (kept in the attributes), what each is linked to and who receives it by mail. The job's
// plain reads (the reports, a calendar, the recipients) run on the read pool (db/pool.ts); the write does not.
import type { Selectable } from 'kysely';
import type { ScheduledReportRow } from '../schema.ts';
import type { SqlDatabase } from '../sql.ts';
import { anyOf, qb, rowAsync, rowsAsync, writeAsync } from './query.ts';

/** The reports that have a calendar. */
export function calendarReports(db: SqlDatabase): Promise<Array<Selectable<ScheduledReportRow>>> {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('reports')
      .select(['id', 'type', 'description', 'calendarId', 'attributes'])
      .where('calendarId', '>', 0),
  );
}

/** A calendar's iCalendar text. */
export async function calendarData(db: SqlDatabase, id: number): Promise<string | undefined> {
  return (await rowAsync(db, qb(db).selectFrom('calendars').select('data').where('id', '=', id)))?.data;
}

export async function setReportAttributes(db: SqlDatabase, id: number, attributes: string): Promise<void> {
  await writeAsync(db, qb(db).updateTable('reports').set({ attributes }).where('id', '=', id));
}

/** Every link of report `id`: its owners, by kind then id (on the read pool). */
export function reportLinkOwners(
  db: SqlDatabase,
  id: number,
): Promise<Array<{ ownerType: string; ownerId: number }>> {
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('links')
      .select(['ownerType', 'ownerId'])
      .where('propertyType', '=', 'report')
      .where('propertyId', '=', id)
      .orderBy('ownerType')
      .orderBy('ownerId'),
  );
}

/** Of these users, those enabled and with an e-mail address (one with an `@`), by id. */
export async function mailRecipients(
  db: SqlDatabase,
  ids: readonly number[],
): Promise<Array<{ id: number; email: string; attributes: string }>> {
  if (!ids.length) return [];
  return rowsAsync(
    db,
    qb(db)
      .selectFrom('users')
      .select(['id', 'email', 'attributes'])
      .where(anyOf(db, 'id', ids))
      .where('disabled', '=', 0)
      .where('email', 'like', '%@%')
      .orderBy('id'),
  );
}
