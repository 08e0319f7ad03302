// Export of a loaded route: Excel (exceljs on demand), GPX, KML and CSV, built in the browser from the points.
import {
  ROUTE_HEADERS_EN,
  routeHeaderRow,
  routeRows,
  routeToCsv,
  routeToGpx,
  routeToKml,
  type RoutePoint,
  type RouteTableHeaders,
  type SpeedUnit,
} from '@rastro/domain';
import { buildXlsx, fileStem, XLSX_MIME, type SheetSpec } from '../../components/xlsx.ts';

export const EXPORT_FORMATS = ['xlsx', 'gpx', 'kml', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The columns of a route's table and sheet, in the domain's order (routeHeaderRow, routeRows). */
export const ROUTE_COLUMNS = Object.keys(ROUTE_HEADERS_EN) as Array<keyof RouteTableHeaders>;

/** The route as one sheet (same columns and values as the CSV). */
export function routeSheet(
  name: string,
  points: readonly RoutePoint[],
  unit: SpeedUnit,
  headers: RouteTableHeaders,
): SheetSpec {
  const head = routeHeaderRow(headers, unit);
  return {
    name,
    columns: ROUTE_COLUMNS.map((key, i) => ({
      header: head[i],
      key,
      width: key === 'address' ? 40 : key === 'time' ? 26 : 14,
    })),
    rows: routeRows(points, unit).map((r) => Object.fromEntries(ROUTE_COLUMNS.map((k, i) => [k, r[i]]))),
  };
}

/** Builds the file of a format: its bytes or text, the file name and MIME type. */
export async function buildRouteExport(
  format: ExportFormat,
  deviceName: string,
  points: readonly RoutePoint[],
  unit: SpeedUnit,
  headers: RouteTableHeaders,
): Promise<{ data: ArrayBuffer | string; filename: string; type: string }> {
  const day = points.length ? new Date(points[0].time).toISOString().slice(0, 10) : '';
  const filename = `${fileStem('route', deviceName, day)}.${format}`;
  switch (format) {
    case 'xlsx':
      return {
        data: await buildXlsx([routeSheet(deviceName, points, unit, headers)]),
        filename,
        type: XLSX_MIME,
      };
    case 'gpx':
      return { data: routeToGpx(deviceName, points), filename, type: 'application/gpx+xml' };
    case 'kml':
      return { data: routeToKml(deviceName, points), filename, type: 'application/vnd.google-earth.kml+xml' };
    case 'csv':
      return { data: '\ufeff' + routeToCsv(points, unit, headers), filename, type: 'text/csv;charset=utf-8' };
  }
}
