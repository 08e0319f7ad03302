// Reads the first worksheet of an .xlsx file into rows of cell values (exceljs, loaded on demand).

/** Cell values of the first sheet, row by row (1-based sheet rows become array positions 0…). */
export async function readFirstSheet(data: ArrayBuffer): Promise<unknown[][]> {
  const mod = await import('exceljs');
  // CommonJS in Node (default export), ES in the browser bundle
  const ExcelJS = (mod.default ?? mod) as typeof mod.default;
  const wb = new ExcelJS.Workbook();
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
