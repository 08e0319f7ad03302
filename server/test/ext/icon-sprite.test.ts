// The marker icons' sprite (web/src/api/mapIconSprite.bin: the alpha bytes of the white SDF icons, issue #13) holds
// exactly the committed icons, each in its cell: regenerating an icon without its sprite
// (server/scripts/assets/generate.ts writes both) fails here.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { MAP_ICON_SPRITE, MAP_ICON_TYPES, spriteCell, spriteSize } from '@rastro/domain';
import { png, SPRITE_FILE, spriteAlpha, spritePixels } from '../../scripts/assets/generate.ts';

const iconsDir = resolve(import.meta.dirname, '../../../web/public/map-icons');

/** RGBA pixels of a PNG as generate.ts writes them (8-bit RGBA, no interlace, every row unfiltered). */
function pixels(file: Buffer): { width: number; height: number; rgba: Uint8Array } {
  expect(file.subarray(1, 4).toString()).toBe('PNG');
  let at = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (at < file.length) {
    const len = file.readUInt32BE(at);
    const type = file.subarray(at + 4, at + 8).toString();
    const data = file.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([data[8], data[9], data[12]]).toEqual([8, 6, 0]);
    }
    if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rgba = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 4 + 1);
    expect(raw[row]).toBe(0);
    rgba.set(raw.subarray(row + 1, row + 1 + width * 4), y * width * 4);
  }
  return { width, height, rgba };
}

describe('map icon sprite', () => {
  const alpha = readFileSync(SPRITE_FILE);
  const { size } = MAP_ICON_SPRITE;
  const width = spriteSize().width;

  it('is 384 × 256 alpha bytes: 24 cells of 64 px, six to a row', () => {
    expect(spriteSize()).toEqual({ width: 384, height: 256 });
    expect(alpha.length).toBe(384 * 256);
  });

  it.each(MAP_ICON_TYPES)(
    'holds %s.png in its cell, and the icon is white (its SDF all in the alpha)',
    (type) => {
      const icon = pixels(readFileSync(join(iconsDir, `${type}.png`)));
      expect([icon.width, icon.height]).toEqual([size, size]);
      const { x, y } = spriteCell(type);
      for (let row = 0; row < size; row++) {
        const from = (y + row) * width + x;
        const cell = alpha.subarray(from, from + size);
        const iconRow = icon.rgba.subarray(row * size * 4, (row + 1) * size * 4);
        expect(Buffer.from(cell).equals(Buffer.from(spriteAlpha(iconRow)))).toBe(true);
        expect(iconRow.filter((_, i) => i % 4 !== 3 && iconRow[i] !== 255)).toHaveLength(0);
      }
    },
  );

  it('spritePixels places each icon in its cell and leaves the rest transparent', () => {
    const red = new Uint8Array(size * size * 4).fill(200);
    const out = spritePixels(new Map([['car', red]]));
    const at = (px: number, py: number) => out.rgba[(py * out.width + px) * 4 + 3];
    expect(at(64, 64)).toBe(200); // car: second row, second column
    expect(at(127, 127)).toBe(200);
    expect(at(63, 64)).toBe(0);
    expect(at(128, 64)).toBe(0);
    expect(pixels(png(out.width, out.height, out.rgba)).rgba).toEqual(out.rgba);
  });
});
