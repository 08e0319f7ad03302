// The alarms report as Excel (GET /{ns}/reports/alarms with the sheet Accept header, issue #32): one sheet with the
// totals, the counts per type and the figures per operator, in the reader's language.
import ExcelJS from 'exceljs';
import type { FastifyRequest } from 'fastify';
import { formatMessage, type AlarmReport, type MessageLocale } from '@rastro/domain';
import { wantsXlsx } from '../live/reports/index.ts';

/** The client asked for the spreadsheet (Accept header of the other reports). */
export const wantsSheet = (req: FastifyRequest): boolean => wantsXlsx(req);

export async function alarmWorkbook(report: AlarmReport, lang: MessageLocale): Promise<Buffer> {
  const m = (key: Parameters<typeof formatMessage>[0]) => formatMessage(key, lang);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(m('alarms.report.title'));
  const figures = [
    m('alarms.report.count'),
    m('alarms.report.resolved'),
    m('alarms.report.ackMedian'),
    m('alarms.report.ackP90'),
    m('alarms.report.resolveMedian'),
    m('alarms.report.resolveP90'),
  ];
  const row = (r: AlarmReport['byOperator'][number] | AlarmReport) => [
    r.count,
    r.resolved,
    r.ackMedian,
    r.ackP90,
    r.resolveMedian,
    r.resolveP90,
  ];
  sheet.addRow([m('alarms.report.operator'), ...figures]).font = { bold: true };
  sheet.addRow([m('alarms.report.total'), ...row(report)]);
  for (const o of report.byOperator) sheet.addRow([o.name, ...row(o)]);
  sheet.addRow([]);
  sheet.addRow([m('alarms.report.type'), m('alarms.report.count')]).font = { bold: true };
  for (const t of report.byType) sheet.addRow([m(`alarms.type.${t.type}`), t.count]);
  sheet.getColumn(1).width = 32;
  for (let c = 2; c <= figures.length + 1; c++) sheet.getColumn(c).width = 18;
  return Buffer.from(await book.xlsx.writeBuffer());
}
