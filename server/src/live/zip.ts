// ZIP archives for KMZ exports (a zip holding doc.kml), written by fflate (MIT, maintained, no dependencies; see
// docs/architecture.md): deflated entries, UTF-8 names, central directory.
import { strToU8, zipSync } from 'fflate';

export interface ZipEntry {
  name: string;
  data: string | Uint8Array;
}

/** The archive of `entries`, deflated at level 6, each dated `modified`. */
export function zip(entries: readonly ZipEntry[], modified = new Date()): Buffer {
  const files: Record<string, [Uint8Array, { mtime: Date }]> = {};
  for (const e of entries) {
    files[e.name] = [typeof e.data === 'string' ? strToU8(e.data) : e.data, { mtime: modified }];
  }
  return Buffer.from(zipSync(files, { level: 6 }));
}
