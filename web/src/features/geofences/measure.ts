// What the list and the form show for a fence's size: km² with 2 decimals for circles and polygons (SPEC §9), the
// length in the user's distance unit for lines, 'Área Não Definida' when the area string holds no shape.
import { formatDistance, formatNumber, geofenceMeasure, parseArea, type DistanceUnit } from '@rastro/domain';

export function measureText(
  areaText: string,
  distanceUnit: DistanceUnit,
  locale: string,
  undefinedText: string,
): string {
  const area = parseArea(areaText);
  if (!area) return undefinedText;
  const m = geofenceMeasure(area);
  return m.kind === 'area'
    ? `${formatNumber(m.km2, locale, 2)} km²`
    : formatDistance(m.meters, distanceUnit, locale, 2);
}

/** Intl locale of an app language (es → es-ES), for the numbers shown. */
export const numberLocale = (language: string): string => (language === 'es' ? 'es-ES' : language || 'pt-BR');
