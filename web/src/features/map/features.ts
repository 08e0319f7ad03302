/// <reference types="geojson" />
// Turning devices, positions and geofences into GeoJSON features for the map's sources.
import {
  attrString,
  deviceColor,
  devicePlate,
  isAnchorGeofence,
  parseArea,
  resolveMapIcon,
  type Device,
  type GeoArea,
  type Geofence,
  type MapPref,
  type Position,
} from '@rastro/domain';
import { areaGeometry } from '../../components/areaGeometry.ts';

export interface DeviceProps {
  icon: string;
  color: string;
  course: number;
  label: string;
  accuracy: number;
  /** metres per pixel at zoom 0 at this latitude (for the precision circle) */
  mpp0: number;
  status: string;
}

export type DeviceFeature = GeoJSON.Feature<GeoJSON.Point, DeviceProps> & { id: number };

export function markerLabel(
  device: Device,
  pref: Pick<MapPref, 'name' | 'plate' | 'status'>,
  statusText: (status: string) => string,
): string {
  const lines: string[] = [];
  if (pref.name) lines.push(device.name);
  const plate = pref.plate && devicePlate(device)?.trim();
  if (plate) lines.push(plate);
  if (pref.status) lines.push(statusText(device.status));
  return lines.join('\n');
}

export function deviceFeature(
  device: Device,
  position: Position,
  pref: MapPref,
  ns: string,
  statusText: (status: string) => string,
  coordinates: [number, number] = [position.longitude, position.latitude],
): DeviceFeature {
  return {
    type: 'Feature',
    id: device.id,
    geometry: { type: 'Point', coordinates },
    properties: {
      icon: `icon-${resolveMapIcon(device.attributes?.[`${ns}.icon`] ?? device.attributes?.icon ?? device.category)}`,
      color: deviceColor(device, position, ns),
      course: Number.isFinite(position.course) ? position.course : 0,
      label: markerLabel(device, pref, statusText),
      accuracy: position.accuracy > 0 ? position.accuracy : 0,
      mpp0: 156543.03392 * Math.cos((position.latitude * Math.PI) / 180),
      status: device.status,
    },
  };
}

/** A point to hang the name on: circle centre, polygon vertex mean, middle vertex of a line. */
function labelPoint(area: GeoArea): [number, number] {
  if (area.type === 'circle') return [area.center.longitude, area.center.latitude];
  if (area.type === 'linestring') {
    const m = area.points[Math.floor(area.points.length / 2)];
    return [m.longitude, m.latitude];
  }
  const n = area.points.length;
  return [
    area.points.reduce((s, p) => s + p.longitude, 0) / n,
    area.points.reduce((s, p) => s + p.latitude, 0) / n,
  ];
}

/**
 * Geofence shapes and label points. Anchors are kept apart from normal fences (own `anchor` flag so they get
 * their own layers and colour).
 */
export function geofenceFeatures(geofences: readonly Geofence[]): {
  shapes: GeoJSON.FeatureCollection;
  labels: GeoJSON.FeatureCollection;
} {
  const shapes: GeoJSON.Feature[] = [];
  const labels: GeoJSON.Feature[] = [];
  for (const g of geofences) {
    const area = parseArea(g.area);
    if (!area) continue;
    const anchor = isAnchorGeofence(g);
    const color = attrString(g.attributes?.color) ?? (anchor ? '#e65100' : '#1976d2');
    const properties = { id: g.id, name: g.name, anchor, color };
    const shape = { type: 'Feature' as const, id: g.id, properties, geometry: areaGeometry(area) };
    shapes.push(shape);
    labels.push({ ...shape, geometry: { type: 'Point', coordinates: labelPoint(area) } });
  }
  return {
    shapes: { type: 'FeatureCollection', features: shapes },
    labels: { type: 'FeatureCollection', features: labels },
  };
}
