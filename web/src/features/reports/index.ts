export { ReportsPage } from './ReportsPage.tsx';
export type { ReportKind } from './columns.ts';
