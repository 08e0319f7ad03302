import { crc32, inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { zip } from '../../src/live/zip.ts';

/** Reads a zip back through its central directory (what unzip tools do). */
function entries(buf: Buffer): Array<{ name: string; text: string; crc: number }> {
  const end = buf.length - 22;
  expect(buf.readUInt32LE(end)).toBe(0x06054b50);
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  const out = [];
  for (let i = 0; i < count; i++) {
    expect(buf.readUInt32LE(at)).toBe(0x02014b50);
    const crc = buf.readUInt32LE(at + 16);
    const size = buf.readUInt32LE(at + 20);
    const nameLen = buf.readUInt16LE(at + 28);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.subarray(at + 46, at + 46 + nameLen).toString();
    const data = buf.subarray(
      local + 30 + buf.readUInt16LE(local + 26),
      local + 30 + buf.readUInt16LE(local + 26) + size,
    );
    out.push({ name, text: inflateRawSync(data).toString(), crc });
    at += 46 + nameLen;
  }
  return out;
}

describe('zip writer (fflate)', () => {
  it('writes deflated entries that read back through the central directory, with their CRCs', () => {
    const kml = '<kml>' + 'x'.repeat(5000) + '</kml>';
    const buf = zip([
      { name: 'doc.kml', data: kml },
      { name: 'ç/ü.txt', data: Buffer.from('olá') },
    ]);
    const got = entries(buf);
    expect(got.map((e) => e.name)).toEqual(['doc.kml', 'ç/ü.txt']);
    expect(got[0].text).toBe(kml);
    expect(got[1].text).toBe('olá');
    expect(got[0].crc).toBe(crc32(Buffer.from(kml)));
    expect(buf.length).toBeLessThan(kml.length); // compressed
  });
});
