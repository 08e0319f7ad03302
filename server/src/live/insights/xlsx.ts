// The scores ranking as an Excel sheet (GET /{ns}/scores with the xlsx Accept header, or /{ns}/scores/xlsx): one row
// per driver or vehicle in ranking order, the score and each component's measured value, in the reader's language
// and distance unit.
import ExcelJS from 'exceljs';
import {
  convertDistance,
  formatMessage,
  resolveUnits,
  UNIT_LABELS,
  type Attributes,
  type MessageLocale,
  type ScoresAnswer,
} from '@rastro/domain';

export interface ScoresWorkbookOptions {
  lang: MessageLocale;
  userAttributes: Record<string, unknown>;
  serverAttributes: Record<string, unknown>;
}

const COMPONENTS = ['overspeed', 'excess', 'acceleration', 'braking', 'cornering', 'idle', 'night'] as const;

export async function scoresWorkbook(answer: ScoresAnswer, o: ScoresWorkbookOptions): Promise<Buffer> {
  const units = resolveUnits(
    { attributes: o.userAttributes as Attributes },
    { attributes: o.serverAttributes as Attributes },
    o.lang,
  );
  const t = (key: Parameters<typeof formatMessage>[0], values: Record<string, string> = {}) =>
    formatMessage(key, o.lang, values);
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Rastro';
  const ws = wb.addWorksheet(t(`scores.sheet.${answer.by}`).slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  ws.columns = [
    { header: t('scores.column.rank'), key: 'rank', width: 8 },
    { header: t(`scores.column.${answer.by}`), key: 'name', width: 28 },
    { header: t('scores.column.score'), key: 'score', width: 12 },
    {
      header: t('scores.column.distance', { unit: UNIT_LABELS[units.distanceUnit] }),
      key: 'distance',
      width: 14,
    },
    { header: t('scores.column.drivingTime'), key: 'drivingTime', width: 14 },
    ...COMPONENTS.map((c) => ({ header: t(`scores.column.${c}`), key: c, width: 18 })),
    { header: t('scores.column.source'), key: 'source', width: 20 },
  ];
  ws.getRow(1).font = { bold: true };
  answer.rows.forEach((r, i) => {
    ws.addRow({
      rank: i + 1,
      name: r.name,
      score: r.breakdown.score ?? t('scores.noScore'),
      distance: Math.round(convertDistance(r.distance, units.distanceUnit) * 100) / 100,
      drivingTime: Math.round((r.drivingMs / 3_600_000) * 100) / 100,
      ...Object.fromEntries(COMPONENTS.map((c) => [c, r.breakdown[c].value])),
      source: t(r.breakdown.fromAlarms ? 'scores.source.alarms' : 'scores.source.positions'),
    });
  });
  ws.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: ws.columns.length } };
  return Buffer.from(await wb.xlsx.writeBuffer());
}
