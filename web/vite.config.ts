import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The dev server proxies the API, the live socket and the /{ns} extension API to a server on :8082.
const target = process.env.RASTRO_DEV_TARGET ?? 'http://localhost:8082';
const ns = process.env.RASTRO_NS ?? 'rastro';

export default defineConfig({
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
      output: {
        // The map engine and drawing tools go in their own chunks, loaded only by the signed-in shell,
        // so the login page never downloads map code.
        codeSplitting: {
          groups: [
            { name: 'maplibre', test: /node_modules[\\/]maplibre-gl[\\/]/ },
            { name: 'terra-draw', test: /node_modules[\\/]terra-draw/ },
            { name: 'charts', test: /node_modules[\\/]uplot[\\/]/ },
            { name: 'exceljs', test: /node_modules[\\/]exceljs[\\/]/ },
            // One chunk per language: the active one is fetched before the first render, the others never
            // unless chosen (web/src/i18n/index.ts).
            { name: 'locale-pt-BR', test: /i18n[\\/]locales[\\/]pt-BR[\\/]/ },
            { name: 'locale-es', test: /i18n[\\/]locales[\\/]es[\\/]/ },
            { name: 'locale-en-US', test: /i18n[\\/]locales[\\/]en-US[\\/]/ },
          ],
        },
      },
    },
  },
});
