// The reports screen's kinds (route names) and their /api/reports types; the columns themselves are the domain's
// (packages/domain/src/reportColumns.ts), shared with the server's .xlsx answers.
import {
  reportColumns,
  type Column,
  type ColumnContext,
  type ReportRow,
  type ReportRowByType,
  type ReportType,
} from '@rastro/domain';

export { excelValue, fuelCost, type Column, type ColumnContext, type ReportRow } from '@rastro/domain';

export const REPORT_KINDS = ['resume', 'travels', 'stops', 'events', 'history'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** Route kind → /api/reports/{type}. */
export const REPORT_TYPE = {
  resume: 'summary',
  travels: 'trips',
  stops: 'stops',
  events: 'events',
  history: 'route',
} as const satisfies Record<ReportKind, ReportType>;

/** The row type of each kind. */
export type RowByKind = { [K in ReportKind]: ReportRowByType[(typeof REPORT_TYPE)[K]] };

export function columnsFor(kind: ReportKind, c: ColumnContext): Column<ReportRow>[] {
  return reportColumns(REPORT_TYPE[kind], c);
}
