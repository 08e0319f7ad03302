export { ReportsPage, REPORT_KINDS, type ReportKind } from './ReportsPage.tsx';
