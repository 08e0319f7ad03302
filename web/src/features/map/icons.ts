// The marker icons (SDF masks, web/public/map-icons), fetched as soon as the map's code loads: in parallel with
// MapLibre's start (its worker, the style, the shaders) rather than after the style has loaded, which put 24 image
// requests on the way to the first markers (issue #13, first map in time).
import { MAP_ICON_TYPES } from '@rastro/domain';

export type IconImage = ImageBitmap | HTMLImageElement | ImageData;

const iconUrl = (type: string) => `/map-icons/${type}.png`;

let pending: Promise<Map<string, IconImage>> | null = null;

async function fetchIcon(type: string): Promise<[string, IconImage] | null> {
  try {
    const res = await fetch(iconUrl(type));
    if (!res.ok) return null;
    return [`icon-${type}`, await createImageBitmap(await res.blob())];
  } catch {
    return null; // a missing icon leaves that category on the default marker's fallback
  }
}

/** Every icon by image name (`icon-<type>`), fetched once; the ones that failed are absent. */
export function prefetchIcons(): Promise<Map<string, IconImage>> {
  pending ??= Promise.all(MAP_ICON_TYPES.map(fetchIcon)).then(
    (list) => new Map(list.filter((e): e is [string, IconImage] => e !== null)),
  );
  return pending;
}
