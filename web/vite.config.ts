import { defineConfig, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { SCREEN_NAMESPACES, SIGN_IN_NAMESPACES } from './src/i18n/namespaces.ts';
import { layerChunkName } from './scripts/chunkGroups.ts';

// The dev server proxies the API, the live socket and the /{ns} extension API to a server on :8082.
const target = process.env.RASTRO_DEV_TARGET ?? 'http://localhost:8082';
const ns = process.env.RASTRO_NS ?? 'rastro';

/**
 * The app's build. `layers` (module id → layer, web/scripts/chunkGroups.ts) groups each layer's modules in one chunk:
 * scripts/build.ts passes it after a probe build; the dev server and a plain `vite build` leave chunking automatic.
 */
export function createConfig(layers?: ReadonlyMap<string, string>): UserConfig {
  return {
    plugins: [react()],
    server: {
      proxy: {
        '/api/socket': { target: target.replace(/^http/, 'ws'), ws: true },
        '/api': { target, changeOrigin: false },
        [`/${ns}`]: { target, changeOrigin: false },
      },
    },
    build: {
      target: 'es2022',
      chunkSizeWarningLimit: 1500,
      // dist/.vite/manifest.json: the module graph bench/web-budget.ts reads.
      manifest: true,
      rolldownOptions: {
        // Rolldown merges chunks shared by several lazy screens into the entry chunk by default, so the sign-in
        // page would download the modal, scroll-area and popover code of screens it never shows.
        experimental: { chunkOptimization: { mergeCommonChunks: false } },
        output: {
          // The map engine and drawing tools go in their own chunks, loaded only by the signed-in shell,
          // so the login page never downloads map code.
          codeSplitting: {
            groups: [
              { name: 'maplibre', test: /node_modules[\\/]maplibre-gl[\\/]/ },
              { name: 'terra-draw', test: /node_modules[\\/]terra-draw/ },
              { name: 'charts', test: /node_modules[\\/]uplot[\\/]/ },
              { name: 'exceljs', test: /node_modules[\\/]exceljs[\\/]/ },
              // Popovers, menus and tooltips position themselves with floating-ui; left alone the bundler hoists it
              // into the entry chunk (many lazy screens share it), so even the sign-in page would download it.
              // React gets its own chunk first, or the floating-ui group would take it in as a dependency.
              { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 2 },
              { name: 'floating-ui', test: /node_modules[\\/]@floating-ui[\\/]/, priority: 1 },
              // Texts: per language, the sign-in pages' namespaces (`-sign-in`), the signed-in shell's (`locale-<lng>`)
              // and one chunk per screen namespace, each fetched only when needed (web/src/i18n/index.ts).
              {
                name: (id: string) => {
                  const m = /i18n[\\/]locales[\\/]([^\\/]+)[\\/]([^\\/]+)\.json$/.exec(id);
                  if (!m) return null;
                  const [, lng, ns] = m;
                  if (SIGN_IN_NAMESPACES.includes(ns)) return `locale-${lng}-sign-in`;
                  if (SCREEN_NAMESPACES.includes(ns)) return `locale-${lng}-${ns}`;
                  return `locale-${lng}`;
                },
                test: /i18n[\\/]locales[\\/]/,
                priority: 3,
              },
              // The sign-in, shell and map layers' modules in one chunk each instead of about a hundred small ones
              // (chunkGroups.ts); what they import from a layer above stays in that layer's chunk.
              ...(layers ? [{ name: layerChunkName(layers), includeDependenciesRecursively: false }] : []),
            ],
          },
        },
      },
    },
  };
}

export default defineConfig(createConfig());
