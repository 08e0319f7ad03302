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

/**
 * Images that load unless they are a sprite answered with `spriteStatus` other than 200, and a canvas whose pixels
 * say where they are: red + 256 × green is the x, blue the y, alpha 1 for the sprite and 2 for a single icon.
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
      const ok = url.endsWith('sprite.png') ? spriteStatus === 200 : true;
      return { ok, status: ok ? 200 : spriteStatus, blob: async () => ({ url }) };
    }),
  );
  vi.stubGlobal(
    'createImageBitmap',
    vi.fn(async (blob: { url: string }, options: ImageBitmapOptions): Promise<FakeBitmap> => {
      decoded.push(options);
      const size = blob.url.endsWith('sprite.png') ? spriteSize : { width: 64, height: 64 };
      return { src: blob.url, ...size };
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
                out.data.set(
                  [(x0 + x) & 255, (x0 + x) >> 8, y0 + y, drawn!.src.endsWith('sprite.png') ? 1 : 2],
                  i,
                );
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

/** The first pixel of an icon: where in its image it came from. */
function origin(icon: ImageData | undefined) {
  const d = icon!.data;
  return { x: d[0] + 256 * d[1], y: d[2], sprite: d[3] === 1, width: icon!.width };
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
  it('loads the one sprite and cuts each icon from its cell: six 64 px cells to a row', async () => {
    const { urls, readBack, decoded } = stubBrowser(200);
    const icons = await freshIcons();
    expect(urls).toEqual(['/map-icons/sprite.png']);
    expect(icons.size).toBe(24);
    expect(origin(icons.get('icon-default'))).toEqual({ x: 0, y: 0, sprite: true, width: 64 });
    // 8th icon: second row, second column
    expect(origin(icons.get('icon-car'))).toEqual({ x: 64, y: 64, sprite: true, width: 64 });
    expect(origin(icons.get('icon-offroad'))).toEqual({ x: 320, y: 192, sprite: true, width: 64 }); // 24th
    // a cell's second row starts one sprite row further down
    expect(icons.get('icon-car')!.data[64 * 4 + 2]).toBe(65);
    expect([...icons.keys()]).toEqual(MAP_ICON_TYPES.map((t) => `icon-${t}`));
    // read back once, from a canvas kept on the CPU
    expect(readBack).toEqual([{ willReadFrequently: true }]);
    // decoded as it is: the SDF's alpha is the distance, never multiplied into the colour
    expect(decoded).toEqual([{ premultiplyAlpha: 'none', colorSpaceConversion: 'none' }]);
  });

  it('falls back to one request per icon when the sprite is missing', async () => {
    const { urls } = stubBrowser(404);
    const icons = await freshIcons();
    expect(urls).toHaveLength(25);
    expect(urls).toContain('/map-icons/truck.png');
    expect(origin(icons.get('icon-truck')).sprite).toBe(false);
    expect(icons.size).toBe(24);
  });

  it('does not cut a sprite of another layout (an old cached file) into wrong icons', async () => {
    const { urls } = stubBrowser(200, { width: 256, height: 256 });
    const icons = await freshIcons();
    expect(urls).toHaveLength(25);
    expect(origin(icons.get('icon-car')).sprite).toBe(false);
  });
});
