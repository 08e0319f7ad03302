// The map's marker icons (SDF masks, web/public/map-icons), fetched and cut before the map needs them. They come in
// one image, the sprite (MAP_ICON_SPRITE), cut into one picture per icon here; should the sprite fail, each icon is
// fetched alone. Pixels are read once on the CPU (`pixels`) and cut in JavaScript: cutting with createImageBitmap,
// or images MapLibre reads back itself, goes through the GPU process, which headless Chromium keeps busy reading
// back frames while the page loads. A module of its own, below the features, so a signed-in page starts it with its
// first requests (app/router.tsx preloadSignedIn) rather than with the map's code: each step (the answer, its
// bytes, the decode, the cuts) waits for a free turn of the main thread, and after MapLibre's code arrived those
// turns came between long tasks, so the icons were ready 0.3–1.1 s after the style (issue #13, session 15).
import { MAP_ICON_SPRITE, MAP_ICON_TYPES, spriteCell, spriteSize } from '@rastro/domain';

export type IconImage = ImageBitmap | HTMLImageElement | ImageData;

const iconUrl = (type: string) => `/map-icons/${type}.png`;
const SPRITE_URL = '/map-icons/sprite.png';

let pending: Promise<Map<string, ImageData>> | null = null;

/** An image, downloaded and decoded off the main thread (a bitmap in memory); rejects when it cannot be had. */
async function loadImage(url: string): Promise<ImageBitmap> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return createImageBitmap(await res.blob(), { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
}

/**
 * An image's pixels, read back on the CPU: a canvas made for reading never goes through the GPU process. (Drawing
 * an `<img>` instead decoded it again on the main thread: 90–230 ms against 2–11 for the bitmap, session 15.)
 */
function pixels(img: ImageBitmap): ImageData {
  const canvas = document.createElement('canvas');
  canvas.width = img.width;
  canvas.height = img.height;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  if (!ctx) throw new Error('no 2d canvas');
  ctx.drawImage(img, 0, 0);
  return ctx.getImageData(0, 0, canvas.width, canvas.height);
}

/** The square of `size` px at (x, y) of `sheet`. */
function cut(sheet: ImageData, x: number, y: number, size: number): ImageData {
  const out = new ImageData(size, size);
  for (let row = 0; row < size; row++) {
    const from = ((y + row) * sheet.width + x) * 4;
    out.data.set(sheet.data.subarray(from, from + size * 4), row * size * 4);
  }
  return out;
}

async function fetchIcon(type: string): Promise<[string, ImageData] | null> {
  try {
    return [`icon-${type}`, pixels(await loadImage(iconUrl(type)))];
  } catch {
    return null; // a missing icon leaves that category on the default marker's fallback
  }
}

const eachIcon = () =>
  Promise.all(MAP_ICON_TYPES.map(fetchIcon)).then(
    (list) => new Map(list.filter((e): e is [string, ImageData] => e !== null)),
  );

/** The sprite's cells by image name (`icon-<type>`). */
async function fromSprite(): Promise<Map<string, ImageData>> {
  const sprite = await loadImage(SPRITE_URL);
  const { width, height } = spriteSize();
  if (sprite.width !== width || sprite.height !== height) throw new Error('sprite of another layout');
  const sheet = pixels(sprite);
  const { size } = MAP_ICON_SPRITE;
  return new Map(
    MAP_ICON_TYPES.map((type) => {
      const { x, y } = spriteCell(type);
      return [`icon-${type}`, cut(sheet, x, y, size)] as const;
    }),
  );
}

/** Every icon by image name (`icon-<type>`), fetched once; the ones that failed are absent. */
export function prefetchIcons(): Promise<Map<string, ImageData>> {
  pending ??= fromSprite().catch(eachIcon);
  return pending;
}
