// The marker icons (SDF masks, web/public/map-icons), fetched as soon as the map's code loads: in parallel with
// MapLibre's start (its worker, the style, the shaders) rather than after the style has loaded, which put 24 image
// requests on the way to the first markers (issue #13, first map in time). They come in one image, the sprite
// (MAP_ICON_SPRITE), cut into one picture per icon here; should the sprite fail, each icon is fetched alone.
import { MAP_ICON_SPRITE, MAP_ICON_TYPES, spriteCell, spriteSize } from '@rastro/domain';

export type IconImage = ImageBitmap | HTMLImageElement | ImageData;

const iconUrl = (type: string) => `/map-icons/${type}.png`;
const SPRITE_URL = '/map-icons/sprite.png';

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

const eachIcon = () =>
  Promise.all(MAP_ICON_TYPES.map(fetchIcon)).then(
    (list) => new Map(list.filter((e): e is [string, IconImage] => e !== null)),
  );

/** The sprite's cells as images by name (`icon-<type>`). */
async function cutSprite(sprite: ImageBitmap): Promise<Map<string, IconImage>> {
  const { width, height } = spriteSize();
  if (sprite.width !== width || sprite.height !== height) throw new Error('sprite of another layout');
  const { size } = MAP_ICON_SPRITE;
  const cells = await Promise.all(
    MAP_ICON_TYPES.map(async (type) => {
      const { x, y } = spriteCell(type);
      return [`icon-${type}`, await createImageBitmap(sprite, x, y, size, size)] as const;
    }),
  );
  return new Map(cells);
}

async function fromSprite(): Promise<Map<string, IconImage>> {
  const res = await fetch(SPRITE_URL);
  if (!res.ok) throw new Error(`sprite: HTTP ${res.status}`);
  return cutSprite(await createImageBitmap(await res.blob()));
}

/** Every icon by image name (`icon-<type>`), fetched once; the ones that failed are absent. */
export function prefetchIcons(): Promise<Map<string, IconImage>> {
  pending ??= fromSprite().catch(eachIcon);
  return pending;
}
