// Chunk groups by the layer that first needs a module (issue #13, first map in time). Left to automatic chunking,
// every module shared by a different set of lazy screens becomes its own chunk: a signed-in page fetched about a
// hundred files of 0–2 kB (Mantine components, icons), six at a time over HTTP/1.1, and the shell could not render
// before the last one arrived. Here a module goes to the first of these layers that loads it:
//   entry   – what every page loads (main.tsx's static imports);
//   sign-in – what the public pages (sign-in, register, recovery, shared links, QR drivers) load beyond the entry;
//   messages, checks – the domain's message catalogue and the sign-in forms' checks (fetched when typing starts);
//   shell   – what the signed-in shell loads beyond those;
//   map     – what the map feature loads beyond those;
//   screens – what two signed-in screens or more share beyond those.
// What a layer loads is only known after tree-shaking (the app imports Mantine and the icons from their package
// index, which re-exports every component), so scripts/build.ts builds twice: a probe without these groups, whose
// chunks and static imports give each layer's modules, then the real build with them. The first three groups hold
// only modules their layer loads anyway, so /login and /home download nothing more than before; a screen downloads
// the screens' shared chunk whole (/devices: 12 kB of gzip more, in 40 files instead of 102). A layer's reach is
// closed under static imports, so a group only imports groups above it; bench/web-budget.ts --check fails the
// build should two chunks ever import each other.
import { resolve } from 'node:path';

const src = (path: string) => resolve(import.meta.dirname, '..', 'src', path);

export interface ChunkLayer {
  name: string;
  /** The modules whose chunks, with their static imports, make what the layer loads. */
  roots: readonly string[];
  /** Modules under this path stay out of the group (a feature's own code that other layers never need). */
  own?: string;
  /** The layer's modules are left to automatic chunking (and to no later layer). */
  ungrouped?: boolean;
  /** Only what two roots or more load is grouped; what one root alone loads keeps its automatic chunks. */
  shared?: boolean;
}

/** The signed-in screens of the router (app/pages.tsx), whose shared modules make the last layer; a screen left
 * out only keeps automatic chunks for what it shares. */
const SCREENS = [
  'devices',
  'history',
  'dashboard',
  'reports',
  'geofences',
  'commands',
  'groups',
  'notifications',
  'computed',
  'users',
  'autolink',
  'health',
  'assistant',
];

/** The layers in order. */
export const CHUNK_LAYERS: readonly ChunkLayer[] = [
  // What every page loads before its first line runs: one chunk instead of 25 (main.tsx keeps the entry chunk).
  { name: 'entry', roots: [src('main.tsx')] },
  {
    name: 'sign-in',
    roots: [src('features/auth/index.ts')],
    own: src('features/auth'),
  },
  // The QR driver's page loads little beyond the sign-in pages; what it shares with the signed-in screens stays in
  // automatic chunks, or the driver's phone would download the shell's chunk (or the shell the driver's).
  { name: 'qr-driver', roots: [src('features/auth/QrDriverPage.tsx')], ungrouped: true },
  // The domain's message catalogue, loaded with the shell's texts and with the sign-in forms' checks: its own group,
  // or the screens that name Traccar's catalogues (traccarName) would take it into their shared chunk, and /home
  // would download that chunk whole. Before the shell's layer, or what both use (the changelog) would stay in the
  // shell's chunk and the sign-in page's checks would download the shell with the catalogue (issue #31).
  { name: 'messages', roots: [src('i18n/domainMessages.ts')] },
  // The sign-in forms' checks (features/auth/validation.ts, fetched once the person starts typing): the domain's
  // form rules they use, grouped before the screens' layer, which would otherwise take them into its shared chunk
  // and make the checks import every screen's code, MapLibre and the shell with it (issue #31).
  { name: 'checks', roots: [src('features/auth/validation.ts')] },
  { name: 'shell', roots: [src('app/ShellLayout.tsx')] },
  { name: 'map', roots: [src('features/map/index.ts')] },
  // What the signed-in screens share (tables, menus, dialogs, form schemas): one chunk instead of dozens.
  {
    name: 'screens',
    shared: true,
    roots: SCREENS.map((name) => src(`features/${name}/index.ts`)),
  },
];

/** The fields of a built chunk this needs (Rolldown's OutputChunk has them all). */
export interface BuiltChunk {
  type: 'chunk';
  fileName: string;
  facadeModuleId: string | null;
  isDynamicEntry: boolean;
  moduleIds: readonly string[];
  imports: readonly string[];
}

/**
 * Module id → layer name, from a build's chunks: each layer takes the modules of the chunks its roots reach through
 * static imports that no earlier layer took, but for the roots themselves (they keep their own chunks). Lazily
 * imported modules are never grouped (grouped, their chunk's exports go missing at run time); one the layer also
 * imports statically (the live store: the socket loads it lazily, the shell statically) keeps, with everything it
 * imports, to automatic chunks, or it would import the group that imports it.
 */
export function layersFromChunks(
  chunks: readonly BuiltChunk[],
  layers: readonly ChunkLayer[] = CHUNK_LAYERS,
): Map<string, string> {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const byModule = new Map<string, BuiltChunk>();
  for (const c of chunks) for (const id of c.moduleIds) byModule.set(id, c);
  const lazy = new Set(
    chunks.flatMap((c) => (c.isDynamicEntry && c.facadeModuleId ? [c.facadeModuleId] : [])),
  );

  /** Chunk files reachable from `files` through static imports, skipping `skip`. */
  const reach = (files: string[], skip: ReadonlySet<string>) => {
    const seen = new Set<string>();
    while (files.length > 0) {
      const file = files.pop()!;
      if (seen.has(file) || skip.has(file) || !byFile.has(file)) continue;
      seen.add(file);
      files.push(...byFile.get(file)!.imports);
    }
    return seen;
  };

  const out = new Map<string, string>();
  const taken = new Set<string>();
  for (const layer of layers) {
    const roots = layer.roots.map((root) => {
      const chunk = byModule.get(root);
      if (!chunk) throw new Error(`no chunk holds ${root}`);
      return chunk.fileName;
    });
    let files = reach([...roots], taken);
    if (layer.shared) {
      const count = new Map<string, number>();
      for (const root of roots) for (const f of reach([root], taken)) count.set(f, (count.get(f) ?? 0) + 1);
      files = new Set([...files].filter((f) => count.get(f)! >= 2));
    }
    const lazyInside = [...files].filter((f) =>
      byFile.get(f)!.moduleIds.some((id) => lazy.has(id) && !layer.roots.includes(id)),
    );
    const automatic = reach(lazyInside, taken);
    for (const file of files) {
      taken.add(file);
      if (layer.ungrouped || automatic.has(file)) continue;
      for (const id of byFile.get(file)!.moduleIds) {
        const own = layer.roots.includes(id) || (layer.own !== undefined && id.startsWith(layer.own));
        if (!lazy.has(id) && !own) out.set(id, layer.name);
      }
    }
  }
  return out;
}

/** A Rolldown group `name` function for a layer map. */
export const layerChunkName =
  (layers: ReadonlyMap<string, string>) =>
  (id: string): string | null =>
    layers.get(id) ?? null;
