// MapLibre's own control texts (zoom, compass, attribution, fullscreen, geolocate, the map's aria-label, …) in the
// user's language (issue #29): the `locale` option of every map the app creates. Texts: the `map` namespace's
// `maplibre.*` keys, nested as MapLibre names them ('NavigationControl.ZoomIn' ⇒ maplibre.NavigationControl.ZoomIn).
import type { TFunction } from 'i18next';

/**
 * The `locale` option of a MapLibre map, from a `t` of the `map` namespace: each text of its `maplibre` object under
 * MapLibre's name for it (the words only: its scale units stay as MapLibre writes them).
 */
export function mapLocale(t: TFunction<'map'> | TFunction): Record<string, string> {
  const texts = (t as (key: string, options: object) => unknown)('maplibre', { returnObjects: true });
  const controls =
    texts && typeof texts === 'object' ? (texts as Record<string, Record<string, string>>) : {};
  return Object.fromEntries(
    Object.entries(controls).flatMap(([control, keys]) =>
      Object.entries(keys).map(([key, text]) => [`${control}.${key}`, text]),
    ),
  );
}
