// Server-side Excel answers of the reports (Traccar gives an .xlsx for the xlsx Accept header): one sheet with the
// same columns as the screen (packages/domain reportColumns), in the reader's language, units and time zone.
import ExcelJS from 'exceljs';
import {
  deviceReportColumns,
  excelValue,
  formatMessage,
  reportColumns,
  resolveUnits,
  type Attributes,
  type Column,
  type ColumnContext,
  type DeviceReportRow,
  type MessageLocale,
  type ReportRow,
  type ReportType,
} from '@rastro/domain';

export interface WorkbookOptions {
  userAttributes: Record<string, unknown>;
  serverAttributes: Record<string, unknown>;
  lang: MessageLocale;
  timeZone: string;
  deviceName: (id: number) => string;
}

const SHEET_KEYS = {
  route: 'reportSheets.route',
  events: 'reportSheets.events',
  trips: 'reportSheets.trips',
  stops: 'reportSheets.stops',
  summary: 'reportSheets.summary',
} as const;

/** The column context of a reader: units, language, time zone and the server's fuel settings. */
function columnContext(o: WorkbookOptions): ColumnContext {
  const times = new Intl.DateTimeFormat(o.lang, {
    timeZone: o.timeZone,
    dateStyle: 'short',
    timeStyle: 'medium',
  });
  const fuelPrice = Number(o.serverAttributes.fuelPrice ?? 0);
  const l100 = Number(o.serverAttributes.litersx100km ?? 0);
  const currency = o.serverAttributes.currency;
  return {
    units: resolveUnits(
      { attributes: o.userAttributes as Attributes },
      { attributes: o.serverAttributes as Attributes },
      o.lang,
    ),
    locale: o.lang,
    formatTime: (v) => {
      const ms = typeof v === 'number' ? v : Date.parse(v);
      return Number.isFinite(ms) ? times.format(ms) : '';
    },
    fuelPrice: Number.isFinite(fuelPrice) ? fuelPrice : 0,
    litersPer100km: Number.isFinite(l100) ? l100 : 0,
    currency: typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? currency : undefined,
    deviceName: o.deviceName,
    label: (key) => formatMessage(key, o.lang),
  };
}

/** One sheet: a bold frozen header of the column labels, a row per item, an auto filter. */
async function sheetWorkbook<R>(name: string, columns: Column<R>[], rows: readonly R[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Rastro';
  const ws = wb.addWorksheet(name.slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c) => ({ header: c.label, key: c.key, width: 18 }));
  ws.getRow(1).font = { bold: true };
  for (const row of rows) ws.addRow(Object.fromEntries(columns.map((c) => [c.key, excelValue(c, row)])));
  if (columns.length) ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: columns.length } };
  return Buffer.from(await wb.xlsx.writeBuffer());
}

export function reportWorkbook(
  type: ReportType,
  rows: readonly ReportRow[],
  o: WorkbookOptions,
): Promise<Buffer> {
  return sheetWorkbook(formatMessage(SHEET_KEYS[type], o.lang), reportColumns(type, columnContext(o)), rows);
}

/** The devices report (GET /api/reports/devices/xlsx): the reader's devices with their latest state. */
export function devicesWorkbook(rows: readonly DeviceReportRow[], o: WorkbookOptions): Promise<Buffer> {
  return sheetWorkbook(
    formatMessage('reportSheets.devices', o.lang),
    deviceReportColumns(columnContext(o)),
    rows,
  );
}
