// The production build (npm run build -w web): a probe build in memory without layer groups, whose chunks tell
// which modules each layer loads (web/scripts/chunkGroups.ts), then the real build with one chunk per layer.
import { resolve } from 'node:path';
import { build, type Rolldown } from 'vite';
import { layersFromChunks, type BuiltChunk } from './chunkGroups.ts';
import { createConfig } from '../vite.config.ts';

const root = resolve(import.meta.dirname, '..');

const plain = createConfig();
const probe = await build({
  ...plain,
  root,
  configFile: false,
  logLevel: 'error',
  build: { ...plain.build, write: false, manifest: false },
});
const outputs = (Array.isArray(probe) ? probe : [probe]) as Rolldown.RolldownOutput[];
const chunks = outputs
  .flatMap((o) => o.output)
  .filter((c): c is Rolldown.OutputChunk & BuiltChunk => c.type === 'chunk');
const layers = layersFromChunks(chunks);
console.log(`chunk layers: ${layers.size} modules from ${chunks.length} probe chunks`);

await build({ ...createConfig(layers), root, configFile: false });
