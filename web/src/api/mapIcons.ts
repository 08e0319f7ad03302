// The map's marker icons (SDF masks, web/public/map-icons), fetched and cut before the map needs them. They come in
// one file, the sprite (MAP_ICON_SPRITE): the icons are white and their signed distance is the alpha, so the file
// holds only the alpha bytes (mapIconSprite.bin, made with the PNGs by server/scripts/assets/generate.ts, 10 kB
// brotli) and each icon's pixels are written here in JavaScript, with no image decode at all. Decoding a PNG sprite
// (createImageBitmap) went through the image decoder and the GPU process, which headless Chromium keeps busy while
// the page loads: 150–720 ms, the last step before the first markers on some loads (issue #13, session 16). Should
// the sprite fail, each icon's PNG is fetched and decoded alone. A module of its own, below the features, so a
// signed-in page starts it with its first requests (app/router.tsx preloadSignedIn) rather than with the map's code.
import { MAP_ICON_SPRITE, MAP_ICON_TYPES, spriteCell, spriteSize } from '@rastro/domain';
import SPRITE_URL from './mapIconSprite.bin?url';

export type IconImage = ImageBitmap | HTMLImageElement | ImageData;

const iconUrl = (type: string) => `/map-icons/${type}.png`;

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

/** The white icon of `size` px whose alpha is the square at (x, y) of the sprite's alpha bytes. */
function cut(alpha: Uint8Array, width: number, x: number, y: number, size: number): ImageData {
  const out = new ImageData(size, size);
  const data = out.data;
  data.fill(255);
  for (let row = 0; row < size; row++) {
    const from = (y + row) * width + x;
    for (let col = 0; col < size; col++) data[(row * size + col) * 4 + 3] = alpha[from + col];
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
  const res = await fetch(SPRITE_URL);
  if (!res.ok) throw new Error(`${SPRITE_URL}: HTTP ${res.status}`);
  const alpha = new Uint8Array(await res.arrayBuffer());
  const { width, height } = spriteSize();
  if (alpha.length !== width * height) throw new Error('sprite of another layout');
  const { size } = MAP_ICON_SPRITE;
  return new Map(
    MAP_ICON_TYPES.map((type) => {
      const { x, y } = spriteCell(type);
      return [`icon-${type}`, cut(alpha, width, x, y, size)] as const;
    }),
  );
}

/** Every icon by image name (`icon-<type>`), fetched once; the ones that failed are absent. */
export function prefetchIcons(): Promise<Map<string, ImageData>> {
  pending ??= fromSprite().catch(eachIcon);
  return pending;
}
