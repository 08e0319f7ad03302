// The route overlay's parts (routeOverlay.ts): a piece's line features coloured by speed, the arrow drawn along
// the line and the playback vehicle's DOM marker.
import { colourRuns, type RoutePoint } from '@rastro/domain';

type FC = GeoJSON.FeatureCollection;

/** The line features of points[start … end] coloured on the scale of `maxSpeed`. */
export function lineData(points: readonly RoutePoint[], start: number, end: number, maxSpeed: number): FC {
  const slice = points.slice(start, end + 1);
  const data: FC = {
    type: 'FeatureCollection',
    features: colourRuns(slice, maxSpeed).map((r) => ({
      type: 'Feature',
      properties: { color: r.color },
      geometry: { type: 'LineString', coordinates: r.coordinates },
    })),
  };
  if (slice.length === 1) {
    const p = slice[0];
    data.features.push({
      type: 'Feature',
      properties: { color: '#1a9850' },
      geometry: {
        type: 'LineString',
        coordinates: [
          [p.longitude, p.latitude],
          [p.longitude, p.latitude],
        ],
      },
    });
  }
  return data;
}

/** A filled triangle as RGBA pixels, pointing right ('along' a line) or up (north, rotated by course). */
export function arrowImage(size: number, pointing: 'right' | 'up', rgb: [number, number, number]) {
  const data = new Uint8Array(size * size * 4);
  const m = size * 0.15;
  // triangle tip at the right edge (or top), base on the left (or bottom)
  const tri =
    pointing === 'right'
      ? [
          [size - m, size / 2],
          [m, m],
          [m, size - m],
        ]
      : [
          [size / 2, m],
          [size - m, size - m],
          [m, size - m],
        ];
  const sign = (p: number[], a: number[], b: number[]) =>
    (p[0] - b[0]) * (a[1] - b[1]) - (a[0] - b[0]) * (p[1] - b[1]);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const p = [x + 0.5, y + 0.5];
      const d1 = sign(p, tri[0], tri[1]);
      const d2 = sign(p, tri[1], tri[2]);
      const d3 = sign(p, tri[2], tri[0]);
      const inside = !((d1 < 0 || d2 < 0 || d3 < 0) && (d1 > 0 || d2 > 0 || d3 > 0));
      if (!inside) continue;
      const o = (y * size + x) * 4;
      data[o] = rgb[0];
      data[o + 1] = rgb[1];
      data[o + 2] = rgb[2];
      data[o + 3] = 255;
    }
  return { width: size, height: size, data };
}

/** The playback vehicle: a white disc with a blue arrow pointing north (rotated by the course). */
export function vehicleElement(): HTMLElement {
  const el = document.createElement('div');
  el.dataset.testid = 'route-vehicle';
  el.style.cssText =
    'width:26px;height:26px;border-radius:50%;background:#fff;border:3px solid #1565c0;box-sizing:border-box;' +
    'display:flex;align-items:center;justify-content:center;box-shadow:0 1px 4px rgba(0,0,0,.4);pointer-events:none';
  el.innerHTML =
    '<svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true"><path d="M7 0 L13 13 L7 10 L1 13 Z" fill="#1565c0"/></svg>';
  return el;
}
