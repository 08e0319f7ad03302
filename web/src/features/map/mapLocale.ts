// MapLibre's own control texts (zoom, compass, attribution, fullscreen, geolocate, the map's aria-label, …) in the
// user's language (issue #29): the `locale` option of every map the app creates. Texts: the `map` namespace's
// `maplibre.*` keys, nested as MapLibre names them ('NavigationControl.ZoomIn' ⇒ maplibre.NavigationControl.ZoomIn).
import type { TFunction } from 'i18next';

/** MapLibre's UI strings that are words (its scale units stay as MapLibre writes them). */
export const MAPLIBRE_TEXT_KEYS = [
  'AttributionControl.ToggleAttribution',
  'AttributionControl.MapFeedback',
  'FullscreenControl.Enter',
  'FullscreenControl.Exit',
  'GeolocateControl.FindMyLocation',
  'GeolocateControl.LocationNotAvailable',
  'LogoControl.Title',
  'Map.Title',
  'Marker.Title',
  'NavigationControl.ResetBearing',
  'NavigationControl.ZoomIn',
  'NavigationControl.ZoomOut',
  'Popup.Close',
  'GlobeControl.Enable',
  'GlobeControl.Disable',
  'TerrainControl.Enable',
  'TerrainControl.Disable',
  'CooperativeGesturesHandler.WindowsHelpText',
  'CooperativeGesturesHandler.MacHelpText',
  'CooperativeGesturesHandler.MobileHelpText',
] as const;

/** The `locale` option of a MapLibre map, from a `t` of the `map` namespace. */
export function mapLocale(t: TFunction<'map'> | TFunction): Record<string, string> {
  const tr = t as (key: string) => string;
  return Object.fromEntries(MAPLIBRE_TEXT_KEYS.map((key) => [key, tr(`maplibre.${key}`)]));
}
