import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAP_ICON_TYPES } from '@rastro/domain';

/** A stand-in ImageBitmap that remembers where it was cut from. */
interface FakeBitmap {
  width: number;
  height: number;
  from: string;
  crop?: [number, number, number, number];
}

function stubBrowser(spriteStatus: number, spriteSize = { width: 384, height: 256 }) {
  const urls: string[] = [];
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
    vi.fn(async (source: { url?: string } & Partial<FakeBitmap>, ...crop: number[]): Promise<FakeBitmap> => {
      if (crop.length === 4)
        return { width: crop[2], height: crop[3], from: source.from!, crop: crop as never };
      const sprite = source.url!.endsWith('sprite.png');
      return { ...(sprite ? spriteSize : { width: 64, height: 64 }), from: source.url! };
    }),
  );
  return urls;
}

async function freshIcons() {
  vi.resetModules();
  return (await import('./icons.ts')).prefetchIcons();
}

afterEach(() => vi.unstubAllGlobals());

describe('marker icons (features/map/icons.ts)', () => {
  it('fetches the one sprite and cuts each icon from its cell: six 64 px cells to a row', async () => {
    const urls = stubBrowser(200);
    const icons = await freshIcons();
    expect(urls).toEqual(['/map-icons/sprite.png']);
    expect(icons.size).toBe(24);
    const cell = (type: string) => (icons.get(`icon-${type}`) as unknown as FakeBitmap).crop;
    expect(cell('default')).toEqual([0, 0, 64, 64]);
    expect(cell('car')).toEqual([64, 64, 64, 64]); // 8th icon: second row, second column
    expect(cell('offroad')).toEqual([320, 192, 64, 64]); // 24th: last cell
    expect([...icons.keys()]).toEqual(MAP_ICON_TYPES.map((t) => `icon-${t}`));
  });

  it('falls back to one request per icon when the sprite is missing', async () => {
    const urls = stubBrowser(404);
    const icons = await freshIcons();
    expect(urls).toHaveLength(25);
    expect(urls).toContain('/map-icons/truck.png');
    expect((icons.get('icon-truck') as unknown as FakeBitmap).from).toBe('/map-icons/truck.png');
    expect(icons.size).toBe(24);
  });

  it('does not cut a sprite of another layout (an old cached file) into wrong icons', async () => {
    const urls = stubBrowser(200, { width: 256, height: 256 });
    const icons = await freshIcons();
    expect(urls).toHaveLength(25);
    expect((icons.get('icon-car') as unknown as FakeBitmap).from).toBe('/map-icons/car.png');
  });
});
