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

export default defineConfig({
  plugins: [react(), precompress()],
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
    rolldownOptions: { treeshake: { manualPureFunctions: ['Type'] } },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/idp': 'http://localhost:3000', '/assets/config': 'http://localhost:3000', '/chat': { target: 'ws://localhost:3000', ws: true }, '/media': { target: 'ws://localhost:3000', ws: true } } },
});
