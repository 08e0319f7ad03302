// Excel (.xlsx) files built and read in the browser with exceljs, loaded on demand (its own chunk: only a click on
// an export or import button downloads it), and the save-a-file helper every export uses.

import { ext, type Query } from '../api/http.ts';

export interface SheetColumn {
  header: string;
  key: string;
  width?: number;
}

export interface SheetSpec {
  name: string;
  columns: SheetColumn[];
  rows: ReadonlyArray<Record<string, string | number | boolean | Date | null | undefined>>;
}

/** Excel sheet names: at most 31 characters, none of : \ / ? * [ ]. */
export function sheetName(name: string): string {
  return name.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31) || 'Sheet';
}

async function newWorkbook() {
  const mod = await import('exceljs');
  // CommonJS in Node (default export), ES in the browser bundle
  return new ((mod.default ?? mod) as typeof mod.default).Workbook();
}

/** One workbook with a sheet per spec: bold header row, frozen, with an auto filter. */
export async function buildXlsx(sheets: readonly SheetSpec[]): Promise<ArrayBuffer> {
  const wb = await newWorkbook();
  wb.creator = 'Rastro';
  for (const s of sheets) {
    const ws = wb.addWorksheet(sheetName(s.name), { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = s.columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? 16 }));
    ws.getRow(1).font = { bold: true };
    for (const r of s.rows) ws.addRow(r);
    if (s.columns.length)
      ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: s.columns.length } };
  }
  return (await wb.xlsx.writeBuffer()) as ArrayBuffer;
}

/** The first worksheet of an .xlsx file as cell values, row by row (1-based sheet rows become positions 0…). */
export async function readFirstSheet(data: ArrayBuffer): Promise<unknown[][]> {
  const wb = await newWorkbook();
  await wb.xlsx.load(data);
  const ws = wb.worksheets[0];
  if (!ws) return [];
  const rows: unknown[][] = [];
  ws.eachRow({ includeEmpty: true }, (row, n) => {
    const values = Array.isArray(row.values) ? row.values.slice(1) : [];
    rows[n - 1] = values.map((v) => (v instanceof Date ? v.toISOString().slice(0, 10) : v));
  });
  for (let i = 0; i < rows.length; i++) rows[i] ??= [];
  return rows;
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Saves a blob as a download (an <a download> click). */
export function downloadBlob(
  data: Blob | ArrayBuffer | string,
  filename: string,
  type = 'application/octet-stream',
) {
  const blob = data instanceof Blob ? data : new Blob([data], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file-name-safe stem: letters, digits, dot, dash and underscore. */
export function fileStem(...parts: string[]): string {
  return parts
    .filter(Boolean)
    .join('_')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/-+/g, '-')
    .slice(0, 80);
}

/** Saves the server's own .xlsx of a report: the same GET on the extension API with the sheet's Accept header. */
export async function downloadServerXlsx(path: string, query: Query, stem: string): Promise<void> {
  const res = await ext.request<Blob>('GET', path, {
    query,
    headers: { Accept: XLSX_MIME },
    responseType: 'blob',
  });
  downloadBlob(res.data, `${stem}.xlsx`, XLSX_MIME);
}
