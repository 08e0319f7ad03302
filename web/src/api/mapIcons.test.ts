import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAP_ICON_TYPES } from '@rastro/domain';

/** A stand-in ImageData: what the module makes and what a canvas gives back. */
class FakeImageData {
  data: Uint8ClampedArray;
  constructor(
    public width: number,
    public height: number,
  ) {
    this.data = new Uint8ClampedArray(width * height * 4);
  }
}

/** A stand-in ImageBitmap: where it was loaded from and how large it is. */
interface FakeBitmap {
  src: string;
  width: number;
  height: number;
}

/** The sprite's alpha byte at (x, y) in these tests: says where a pixel came from. */
const spriteAlphaAt = (x: number, y: number) => (x * 7 + y * 13) & 255;
const isSprite = (url: string) => /mapIconSprite.*\.bin$/.test(url);

/**
 * A sprite (alpha bytes, `spriteAlphaAt`) answered with `spriteStatus`, icons' images that load, and a canvas whose
 * pixels say where they are: red + 256 × green is the x, blue the y, alpha 2 (a single icon).
 */
function stubBrowser(spriteStatus: number, spriteSize = { width: 384, height: 256 }) {
  const urls: string[] = [];
  const readBack: { willReadFrequently?: boolean }[] = [];
  const decoded: ImageBitmapOptions[] = [];
  vi.stubGlobal('ImageData', FakeImageData);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      urls.push(url);
      const ok = isSprite(url) ? spriteStatus === 200 : true;
      const { width, height } = spriteSize;
      const alpha = Uint8Array.from({ length: width * height }, (_, i) =>
        spriteAlphaAt(i % width, (i / width) | 0),
      );
      return {
        ok,
        status: ok ? 200 : spriteStatus,
        blob: async () => ({ url }),
        arrayBuffer: async () => alpha.buffer,
      };
    }),
  );
  vi.stubGlobal(
    'createImageBitmap',
    vi.fn(async (blob: { url: string }, options: ImageBitmapOptions): Promise<FakeBitmap> => {
      decoded.push(options);
      return { src: blob.url, width: 64, height: 64 };
    }),
  );
  const createElement = document.createElement.bind(document);
  vi.spyOn(document, 'createElement').mockImplementation((tag: string) => {
    if (tag !== 'canvas') return createElement(tag);
    let drawn: FakeBitmap | null = null;
    const canvas = {
      width: 0,
      height: 0,
      getContext: (_kind: string, options: { willReadFrequently?: boolean }) => {
        readBack.push(options);
        return {
          drawImage: (img: FakeBitmap) => (drawn = img),
          getImageData: (x0: number, y0: number, w: number, h: number) => {
            const out = new FakeImageData(w, h);
            for (let y = 0; y < h; y++)
              for (let x = 0; x < w; x++) {
                const i = (y * w + x) * 4;
                out.data.set([(x0 + x) & 255, (x0 + x) >> 8, y0 + y, drawn ? 2 : 0], i);
              }
            return out;
          },
        };
      },
    };
    return canvas as unknown as HTMLCanvasElement;
  });
  return { urls, readBack, decoded };
}

/** The first pixel of an icon read from a single icon's image: where in it it came from. */
function origin(icon: ImageData | undefined) {
  const d = icon!.data;
  return { x: d[0] + 256 * d[1], y: d[2], sprite: d[3] !== 2, width: icon!.width };
}

/** An icon's pixel (col, row) is white with the sprite's alpha at its cell's (x, y) + (col, row). */
function expectCell(icon: ImageData | undefined, x: number, y: number) {
  expect(icon!.width).toBe(64);
  for (const [col, row] of [
    [0, 0],
    [1, 0],
    [0, 1],
    [63, 63],
    [17, 40],
  ]) {
    const i = (row * 64 + col) * 4;
    expect([...icon!.data.subarray(i, i + 4)]).toEqual([255, 255, 255, spriteAlphaAt(x + col, y + row)]);
  }
}

async function freshIcons() {
  vi.resetModules();
  return (await import('./mapIcons.ts')).prefetchIcons();
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('marker icons (api/mapIcons.ts)', () => {
  it('loads the one sprite of alpha bytes and writes each icon from its cell: six 64 px cells to a row', async () => {
    const { urls, readBack, decoded } = stubBrowser(200);
    const icons = await freshIcons();
    expect(urls).toHaveLength(1);
    expect(isSprite(urls[0])).toBe(true);
    expect(icons.size).toBe(24);
    expectCell(icons.get('icon-default'), 0, 0);
    expectCell(icons.get('icon-car'), 64, 64); // 8th icon: second row, second column
    expectCell(icons.get('icon-offroad'), 320, 192); // 24th
    expect([...icons.keys()]).toEqual(MAP_ICON_TYPES.map((t) => `icon-${t}`));
    // no image decoded, no canvas read back
    expect(decoded).toEqual([]);
    expect(readBack).toEqual([]);
  });

  it('falls back to one request per icon when the sprite is missing', async () => {
    const { urls, readBack, decoded } = stubBrowser(404);
    const icons = await freshIcons();
    expect(urls).toHaveLength(25);
    expect(urls).toContain('/map-icons/truck.png');
    expect(origin(icons.get('icon-truck'))).toEqual({ x: 0, y: 0, sprite: false, width: 64 });
    expect(icons.size).toBe(24);
    // each read back from a canvas kept on the CPU, decoded as it is: the SDF's alpha is the distance, never
    // multiplied into the colour
    expect(readBack).toHaveLength(24);
    expect(readBack[0]).toEqual({ willReadFrequently: true });
    expect(decoded[0]).toEqual({ premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
  });

  it('does not cut a sprite of another layout (an old cached file) into wrong icons', async () => {
    const { urls } = stubBrowser(200, { width: 256, height: 256 });
    const icons = await freshIcons();
    expect(urls).toHaveLength(25);
    expect(origin(icons.get('icon-car')).sprite).toBe(false);
  });
});
