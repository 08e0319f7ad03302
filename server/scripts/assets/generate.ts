// Generates Rastro's own media: the 24 notification sounds (WAV), the 24 map-icon glyphs (SDF PNG for MapLibre,
// each alone, and all in one sprite of their alpha bytes: web/src/api/mapIconSprite.bin) and the category images. Run: `node --import tsx server/scripts/assets/generate.ts`. The output is committed;
// this script documents how it was made and lets anyone change a shape or a tone.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';
import { MAP_ICON_SPRITE, spriteCell, spriteSize, type MapIconType } from '@rastro/domain';
import { ICON_TYPES, SHAPES, type Shape } from './shapes.ts';

const here = import.meta.dirname;
const served = resolve(here, '../../src/ext/assets');
const soundsDir = join(served, 'sounds');
const categoriesDir = join(served, 'categories');
const iconsDir = resolve(here, '../../../web/public/map-icons');
/** The sprite the web app loads (web/src/api/mapIcons.ts): built into its content-hashed assets. */
export const SPRITE_FILE = resolve(here, '../../../web/src/api/mapIconSprite.bin');

// ---------- WAV ----------
const RATE = 16000;

interface Tone {
  /** start and end frequency (Hz) of each beep (a sweep when they differ) */
  f: [number, number];
  ms: number;
  wave: 'sine' | 'square' | 'triangle';
}

function wav(tones: Array<Tone | { gap: number }>): Buffer {
  const samples: number[] = [];
  for (const t of tones) {
    if ('gap' in t) {
      for (let i = 0; i < (RATE * t.gap) / 1000; i++) samples.push(0);
      continue;
    }
    const n = Math.round((RATE * t.ms) / 1000);
    let phase = 0;
    for (let i = 0; i < n; i++) {
      const f = t.f[0] + ((t.f[1] - t.f[0]) * i) / n;
      phase += (2 * Math.PI * f) / RATE;
      const p = phase % (2 * Math.PI);
      let v: number;
      if (t.wave === 'sine') v = Math.sin(p);
      else if (t.wave === 'square') v = p < Math.PI ? 0.6 : -0.6;
      else v = p < Math.PI ? -1 + (2 * p) / Math.PI : 3 - (2 * p) / Math.PI;
      // 8 ms attack and release avoid clicks
      const env = Math.min(1, i / (RATE * 0.008), (n - i) / (RATE * 0.008));
      samples.push(v * env * 0.8);
    }
  }
  const data = Buffer.alloc(samples.length);
  samples.forEach((s, i) => (data[i] = Math.max(0, Math.min(255, Math.round(128 + s * 127)))));
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8);
  h.write('fmt ', 12);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(RATE, 24);
  h.writeUInt32LE(RATE, 28); // byte rate (8-bit mono)
  h.writeUInt16LE(1, 32);
  h.writeUInt16LE(8, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

/** 24 distinct patterns: pitch, beep count, waveform and sweeps all vary. */
export function soundPatterns(): Array<Array<Tone | { gap: number }>> {
  const waves: Tone['wave'][] = ['sine', 'triangle', 'square'];
  const out: Array<Array<Tone | { gap: number }>> = [];
  for (let i = 0; i < 24; i++) {
    const wave = waves[i % 3];
    const base = 440 * Math.pow(2, (i % 8) / 4); // 440 .. ~1660 Hz
    const kind = Math.floor(i / 8); // 0: beeps, 1: rising/falling sweeps, 2: two-tone
    const beeps = 1 + (i % 4);
    const seq: Array<Tone | { gap: number }> = [];
    for (let b = 0; b < beeps; b++) {
      if (b > 0) seq.push({ gap: 60 });
      if (kind === 0) seq.push({ f: [base, base], ms: 120, wave });
      else if (kind === 1)
        seq.push({ f: b % 2 === 0 ? [base, base * 1.5] : [base * 1.5, base], ms: 140, wave });
      else
        seq.push({ f: [b % 2 === 0 ? base : base * 1.26, b % 2 === 0 ? base : base * 1.26], ms: 100, wave });
    }
    out.push(seq);
  }
  return out;
}

// ---------- PNG ----------
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}
/** RGBA pixels → PNG file. */
export function png(width: number, height: number, rgba: Uint8Array): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 6;
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0;
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------- shapes on a 48-unit grid ----------
function inside(s: Shape, x: number, y: number): boolean {
  switch (s.k) {
    case 'rect':
      return x >= s.x && x <= s.x + s.w && y >= s.y && y <= s.y + s.h;
    case 'circle':
      return (x - s.cx) ** 2 + (y - s.cy) ** 2 <= s.r ** 2;
    case 'ellipse':
      return ((x - s.cx) / s.rx) ** 2 + ((y - s.cy) / s.ry) ** 2 <= 1;
    case 'poly': {
      let c = false;
      const p = s.p;
      for (let i = 0, j = p.length - 1; i < p.length; j = i++) {
        const [xi, yi] = p[i];
        const [xj, yj] = p[j];
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
      }
      return c;
    }
  }
}
function covered(shapes: Shape[], x: number, y: number): boolean {
  let on = false;
  for (const s of shapes) if (inside(s, x, y)) on = !s.cut;
  return on;
}

/** A binary mask of a glyph at `size` px (the 48-unit grid scaled), glyph scaled by `scale` around the centre. */
function mask(shapes: Shape[], size: number, scale = 1): Uint8Array {
  const m = new Uint8Array(size * size);
  for (let py = 0; py < size; py++)
    for (let px = 0; px < size; px++) {
      const gx = 24 + ((px + 0.5) / size - 0.5) * (48 / scale);
      const gy = 24 + ((py + 0.5) / size - 0.5) * (48 / scale);
      m[py * size + px] = covered(shapes, gx, gy) ? 1 : 0;
    }
  return m;
}

/** Signed-distance-field pixels (64 px RGBA) as MapLibre expects for `sdf: true` (edge at alpha 0.75, 8 px radius). */
function sdfIcon(shapes: Shape[]): Uint8Array {
  const size = 64;
  const hi = 4; // supersampling for the distance search
  const big = mask(shapes, size * hi, 48 / 64);
  const radius = 8;
  const rgba = new Uint8Array(size * size * 4);
  const R = radius * hi;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const cx = x * hi + hi / 2;
      const cy = y * hi + hi / 2;
      const me = big[cy * size * hi + cx];
      let best = R;
      for (let dy = -R; dy <= R; dy += 1) {
        const yy = cy + dy;
        if (yy < 0 || yy >= size * hi) continue;
        for (let dx = -R; dx <= R; dx += 1) {
          const xx = cx + dx;
          if (xx < 0 || xx >= size * hi) continue;
          if (big[yy * size * hi + xx] !== me) {
            const d = Math.sqrt(dx * dx + dy * dy);
            if (d < best) best = d;
          }
        }
      }
      const dist = (me ? -best : best) / hi; // px, positive outside
      const a = Math.max(0, Math.min(1, 1 - (dist / radius + 0.25)));
      const o = (y * size + x) * 4;
      rgba[o] = rgba[o + 1] = rgba[o + 2] = 255;
      rgba[o + 3] = Math.round(a * 255);
    }
  return rgba;
}

/**
 * Every icon's pixels in one RGBA image, each in its cell (MAP_ICON_SPRITE, `spriteCell`). The icons are white
 * (their SDF is the alpha), so the sprite file holds only the alpha bytes, row by row (`spriteAlpha`).
 */
export function spritePixels(icons: ReadonlyMap<MapIconType, Uint8Array>): {
  width: number;
  height: number;
  rgba: Uint8Array;
} {
  const { width, height } = spriteSize();
  const { size } = MAP_ICON_SPRITE;
  const rgba = new Uint8Array(width * height * 4);
  for (const [type, pixels] of icons) {
    const { x, y } = spriteCell(type);
    for (let row = 0; row < size; row++)
      rgba.set(pixels.subarray(row * size * 4, (row + 1) * size * 4), ((y + row) * width + x) * 4);
  }
  return { width, height, rgba };
}

/** The sprite's alpha bytes, one per pixel, row by row: what mapIconSprite.bin holds. */
export function spriteAlpha(rgba: Uint8Array): Uint8Array {
  const alpha = new Uint8Array(rgba.length / 4);
  for (let i = 0; i < alpha.length; i++) alpha[i] = rgba[i * 4 + 3];
  return alpha;
}

const CATEGORY_HUES: Record<string, number> = {};
ICON_TYPES.forEach((t, i) => (CATEGORY_HUES[t] = (i * 137) % 360));

function hsl(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}

/** A 128 px category picture: coloured disc, white glyph (4x supersampled for smooth edges). */
function categoryImage(type: string): Buffer {
  const size = 128;
  const ss = 4;
  const glyph = mask(SHAPES[type], size * ss, 0.62);
  const [r, g, b] = hsl(CATEGORY_HUES[type], 0.55, 0.45);
  const rgba = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      let disc = 0;
      let white = 0;
      for (let sy = 0; sy < ss; sy++)
        for (let sx = 0; sx < ss; sx++) {
          const px = x * ss + sx;
          const py = y * ss + sy;
          const dx = px + 0.5 - (size * ss) / 2;
          const dy = py + 0.5 - (size * ss) / 2;
          if (dx * dx + dy * dy <= ((size * ss) / 2 - ss) ** 2) {
            disc++;
            if (glyph[py * size * ss + px]) white++;
          }
        }
      const n = ss * ss;
      const o = (y * size + x) * 4;
      const w = disc ? white / disc : 0;
      rgba[o] = Math.round(r + (255 - r) * w);
      rgba[o + 1] = Math.round(g + (255 - g) * w);
      rgba[o + 2] = Math.round(b + (255 - b) * w);
      rgba[o + 3] = Math.round((disc / n) * 255);
    }
  return png(size, size, rgba);
}

function main(): void {
  mkdirSync(soundsDir, { recursive: true });
  mkdirSync(categoriesDir, { recursive: true });
  mkdirSync(iconsDir, { recursive: true });
  soundPatterns().forEach((p, i) => writeFileSync(join(soundsDir, `audio${i + 1}.wav`), wav(p)));
  const icons = new Map<MapIconType, Uint8Array>();
  for (const type of ICON_TYPES) {
    icons.set(type, sdfIcon(SHAPES[type]));
    writeFileSync(join(iconsDir, `${type}.png`), png(64, 64, icons.get(type)!));
    writeFileSync(join(categoriesDir, `${type}.png`), categoryImage(type));
  }
  const sprite = spritePixels(icons);
  writeFileSync(SPRITE_FILE, spriteAlpha(sprite.rgba));
  console.log(
    `wrote 24 sounds, ${ICON_TYPES.length} map icons and their sprite, ${ICON_TYPES.length} category images`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) main();
