/// <reference types="geojson" />
// The map geometry of a geofence's area, shared by the drawing (mapDrawLayer.ts) and the live map's fences
// (features/map/features.ts). Its own small module: the live map's first load takes it without the drawing code.
import { circleRing, type GeoArea, type LatLon } from '@rastro/domain';

export const lonLat = (p: LatLon): [number, number] => [p.longitude, p.latitude];

/** A circle as a 64-gon, a polygon closed, a line as it is. */
export function areaGeometry(area: GeoArea): GeoJSON.Polygon | GeoJSON.LineString {
  if (area.type === 'circle')
    return { type: 'Polygon', coordinates: [circleRing(area.center, area.radius).map(lonLat)] };
  const points = area.points.map(lonLat);
  if (area.type === 'polygon') return { type: 'Polygon', coordinates: [[...points, points[0]]] };
  return { type: 'LineString', coordinates: points };
}
