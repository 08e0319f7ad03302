import { describe, expect, it } from 'vitest';
import { layersFromChunks, type BuiltChunk, type ChunkLayer } from '../scripts/chunkGroups.ts';

const chunk = (
  fileName: string,
  moduleIds: string[],
  imports: string[] = [],
  facade?: string,
): BuiltChunk => ({
  type: 'chunk',
  fileName,
  facadeModuleId: facade ?? null,
  isDynamicEntry: facade !== undefined && facade !== '/main.tsx',
  moduleIds,
  imports,
});

// A probe build in miniature: the entry, the sign-in pages, the shell, the map and two screens; the live store is
// loaded lazily by the entry's socket and statically by the shell (its own facade chunk, code in a common chunk).
const chunks = [
  chunk('entry.js', ['/main.tsx', '/router.tsx'], ['react.js'], '/main.tsx'),
  chunk('react.js', ['/node_modules/react/index.js']),
  chunk(
    'auth.js',
    ['/features/auth/index.ts', '/features/auth/Login.tsx'],
    ['button.js', 'entry.js'],
    '/features/auth/index.ts',
  ),
  chunk('button.js', ['/node_modules/mantine/Button.mjs'], ['react.js']),
  chunk(
    'shell-page.js',
    ['/app/ShellLayout.tsx', '/app/Header.tsx'],
    ['menu.js', 'button.js', 'live-code.js'],
    '/app/ShellLayout.tsx',
  ),
  chunk('menu.js', ['/node_modules/mantine/Menu.mjs'], ['react.js']),
  chunk('live.js', ['/stores/live.ts'], ['live-code.js'], '/stores/live.ts'),
  chunk('live-code.js', ['/stores/live.ts', '/filters.ts'], ['sort.js']),
  chunk('sort.js', ['/sort.ts']),
  chunk(
    'map.js',
    ['/features/map/index.ts', '/features/map/MapView.tsx'],
    ['menu.js', 'maplibre.js'],
    '/features/map/index.ts',
  ),
  chunk('maplibre.js', ['/node_modules/maplibre-gl/dist/maplibre-gl.js']),
  chunk('devices.js', ['/features/devices/index.ts'], ['table.js', 'menu.js'], '/features/devices/index.ts'),
  chunk('history.js', ['/features/history/index.ts'], ['table.js', 'chart.js'], '/features/history/index.ts'),
  chunk('table.js', ['/node_modules/mantine/Table.mjs'], ['react.js']),
  chunk('chart.js', ['/node_modules/uplot/uPlot.js']),
];

const layers: ChunkLayer[] = [
  { name: 'entry', roots: ['/main.tsx'], ungrouped: true },
  { name: 'sign-in', roots: ['/features/auth/index.ts'], own: '/features/auth' },
  { name: 'shell', roots: ['/app/ShellLayout.tsx'] },
  { name: 'map', roots: ['/features/map/index.ts'] },
  { name: 'screens', roots: ['/features/devices/index.ts', '/features/history/index.ts'], shared: true },
];

describe('chunk layers (web/scripts/chunkGroups.ts)', () => {
  const out = layersFromChunks(chunks, layers);

  it('puts a module in the first layer that loads it, beyond the entry', () => {
    expect(out.get('/node_modules/mantine/Button.mjs')).toBe('sign-in');
    expect(out.get('/app/Header.tsx')).toBe('shell');
    expect(out.get('/node_modules/mantine/Menu.mjs')).toBe('shell'); // the map loads it too, after the shell
    expect(out.get('/features/map/MapView.tsx')).toBe('map');
    expect(out.get('/node_modules/maplibre-gl/dist/maplibre-gl.js')).toBe('map');
  });

  it("leaves the entry's modules and a layer's own code where they are", () => {
    expect(out.has('/main.tsx')).toBe(false);
    expect(out.has('/router.tsx')).toBe(false);
    expect(out.has('/node_modules/react/index.js')).toBe(false);
    expect(out.has('/features/auth/Login.tsx')).toBe(false);
  });

  it('never groups a lazily imported module, nor what a lazy module the layer imports statically needs', () => {
    expect(out.has('/app/ShellLayout.tsx')).toBe(false); // the router imports it lazily
    expect(out.has('/features/map/index.ts')).toBe(false);
    // grouped, filters.ts and sort.ts would put the shell's chunk and the live store's in a circle
    expect(out.has('/stores/live.ts')).toBe(false);
    expect(out.has('/filters.ts')).toBe(false);
    expect(out.has('/sort.ts')).toBe(false);
  });

  it('groups only what two screens or more share in a shared layer', () => {
    expect(out.get('/node_modules/mantine/Table.mjs')).toBe('screens');
    expect(out.has('/node_modules/uplot/uPlot.js')).toBe(false); // history's alone
    expect(out.has('/features/devices/index.ts')).toBe(false);
  });

  it("groups the entry's modules too, but for the entry module itself", () => {
    const grouped = layersFromChunks(chunks, [{ name: 'entry', roots: ['/main.tsx'] }, ...layers.slice(1)]);
    expect(grouped.has('/main.tsx')).toBe(false);
    expect(grouped.get('/router.tsx')).toBe('entry');
    expect(grouped.get('/node_modules/react/index.js')).toBe('entry');
    expect(grouped.get('/node_modules/mantine/Button.mjs')).toBe('sign-in');
  });

  it('fails loudly when a root is missing from the build', () => {
    expect(() => layersFromChunks(chunks, [{ name: 'x', roots: ['/nowhere.ts'] }])).toThrow('/nowhere.ts');
  });
});
