import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Writes a .br and a .gz copy beside every compressible built asset, which the server sends to browsers that accept
 * them (@fastify/static preCompressed): the background-blur WASM is 13 MB raw and under 4 MB compressed, which
 * matters on a job seeker's phone. Compressed once at build time, never per request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'videomote-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    writeBundle() {
      const assets = path.join(outDir, 'assets');
      for (const name of fs.existsSync(assets) ? fs.readdirSync(assets) : []) {
        if (!/\.(js|css|wasm|tflite|svg|json)$/.test(name)) continue;
        const file = path.join(assets, name);
        const raw = fs.readFileSync(file);
        if (raw.length < 1024) continue;
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(raw, { level: 9 }));
        fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }));
      }
    },
  };
}

/**
 * The app's first module (app/early-start.ts) as an entry of its own, named in the page's HTML before the app's
 * bundle: opening a meeting's call directly, its media token is asked for as soon as that small chunk has arrived,
 * not after the browser has compiled and evaluated the whole bundle (React, the router, the texts: over a second on a
 * loaded machine or a cheap phone). main.tsx imports the same module, so it runs once.
 */
const EARLY_START = 'src/app/early-start.ts';
function earlyStartFirst(): Plugin {
  return {
    name: 'videomote-early-start',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.isEntry && c.facadeModuleId?.endsWith(EARLY_START));
        const app = '<script type="module"';
        if (!chunk || !html.includes(app)) throw new Error(`${EARLY_START} or the app's script is missing from the build`);
        // async: it runs as soon as it has arrived, not after the document and the scripts before it. Should the app's
        // bundle run first all the same, the bundle imports this module and runs it first (once, as for any module).
        return html.replace(app, `<script type="module" async crossorigin src="/${chunk.fileName}"></script>\n    ${app}`);
      },
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(), earlyStartFirst()],
  // The background-blur worker is an ES module worker: tasks-vision loads its WASM loader with import() there.
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // The manifest tells the server which chunks a lazy page needs, to name them in its HTML (platform/page-preloads.ts).
    manifest: true,
    // The contract's modules define TypeBox schemas beside the constants the web imports; building a schema has no
    // side effect, so one nobody uses is dropped (TypeBox had been a fifth of the bundle every page loads).
    rolldownOptions: { input: { index: 'index.html', 'early-start': EARLY_START }, treeshake: { manualPureFunctions: ['Type'] } },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/idp': 'http://localhost:3000', '/assets/config': 'http://localhost:3000', '/chat': { target: 'ws://localhost:3000', ws: true }, '/media': { target: 'ws://localhost:3000', ws: true } } },
});
