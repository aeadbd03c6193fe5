import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { build, defineConfig, type Plugin } from 'vite';
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
 * The app's first module (app/early-start.ts) as the page's one script, and the app's bundle only preloaded: opening a
 * meeting's call directly, its media token is asked for as soon as that small chunk has arrived, not after the
 * browser has compiled and evaluated the whole bundle (React, the router, the texts: over a second on a loaded
 * machine or a cheap phone); and the bundle, downloaded meanwhile, is run by early-start once the page's first screen
 * (first-screens.tsx) has been painted, not before it. main.tsx imports the same module, so it runs once.
 */
const EARLY_START = 'src/app/early-start.ts';

/**
 * React, React DOM and the router in a chunk of their own, which early-start runs a task before the app's own modules:
 * evaluated together they were one long task (44-105 ms under Lighthouse on this VM, several times that on a phone)
 * in which a tap waits. The chunk also stays cached across releases that change only the app.
 */
const LIBRARY_CHUNK = 'react';
const LIBRARY_MODULES = /node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/;
function earlyStartFirst(): Plugin {
  return {
    name: 'videomote-early-start',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunk = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.isEntry && c.facadeModuleId?.endsWith(EARLY_START));
        const app = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
        if (!chunk || !app.test(html)) throw new Error(`${EARLY_START} or the app's script is missing from the build`);
        const library = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.name === LIBRARY_CHUNK);
        const libraryPreload = `<link rel="modulepreload" crossorigin href="/${library?.fileName}">`;
        if (!library || !html.includes(libraryPreload)) throw new Error(`the ${LIBRARY_CHUNK} chunk is missing from the build or its HTML`);
        // async: it runs as soon as it has arrived, not after the document and the scripts before it.
        return html
          .replace(app, (_, src: string) => `<script type="module" async crossorigin src="/${chunk.fileName}"></script>\n    <link rel="modulepreload" crossorigin href="${src}" data-videomote-app>`)
          .replace(libraryPreload, () => libraryPreload.replace('>', ' data-videomote-library>'));
      },
    },
  };
}

/**
 * The meeting screen's files, named in index.html (a meta element) for the lobby to download ahead of the call
 * without running them (features/conference/routes.tsx, `downloadConference`): the page's chunk, its panels, the
 * call's start, janus.js (imported on demand by the media session), what they import and their styles, without what
 * the app's entry has loaded already. Only the build knows these hashed names; a dynamic import would also run them.
 */
const CALL_SCREEN = ['src/features/conference/pages/conference-page.tsx', 'src/app/conference-panels.tsx', 'src/features/conference/media/call-start.ts'];
const CALL_SCREEN_LIBRARY = '/node_modules/janus-gateway/';
function callScreenFiles(): Plugin {
  return {
    name: 'videomote-call-screen-files',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = new Map(Object.values(ctx.bundle ?? {}).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
        const closure = (starts: string[]) => {
          const seen = new Set<string>();
          const visit = (file: string) => {
            if (seen.has(file) || !chunks.has(file)) return;
            seen.add(file);
            chunks.get(file)!.imports.forEach(visit);
          };
          starts.forEach(visit);
          return seen;
        };
        const entry = closure([...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName));
        // Each source's chunk (call-start.ts shares one with what else imports it), and janus.js's.
        const holding = (part: string) => [...chunks.values()].find((c) => c.moduleIds.some((id) => id.includes(part)));
        const starts = [...CALL_SCREEN, CALL_SCREEN_LIBRARY].map((part) => {
          const chunk = holding(part);
          if (!chunk) throw new Error(`${part}, part of the meeting screen, is in no chunk of the build`);
          return chunk;
        });
        const scripts = [...closure(starts.map((c) => c.fileName))].filter((f) => !entry.has(f));
        const entryStyles = new Set([...entry].flatMap((f) => [...(chunks.get(f)!.viteMetadata?.importedCss ?? [])]));
        const styles = [...new Set(scripts.flatMap((f) => [...(chunks.get(f)!.viteMetadata?.importedCss ?? [])]))].filter((f) => !entryStyles.has(f));
        const files = [...scripts, ...styles].map((f) => `/${f}`).join(' ');
        return html.replace('</head>', `  <meta name="videomote-call-screen-files" content="${files}" />\n  </head>`);
      },
    },
  };
}

/**
 * The first screens (src/first-screens.tsx) rendered to HTML once the app is built: the module is built for Node,
 * run in a process of its own (it stands in the browser's `window` and `document` for the components it renders),
 * and its markup written to dist/first-screens.json, which the server puts into the page's HTML
 * (apps/server/src/platform/first-screens.ts).
 */
const FIRST_SCREENS = 'src/first-screens.tsx';
function firstScreens(): Plugin {
  let root = '';
  let outDir = 'dist';
  return {
    name: 'videomote-first-screens',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      // Under node_modules, so that the built module finds React and the router where the app's sources do.
      const serverOut = path.join(root, 'node_modules', '.first-screens');
      await build({
        root,
        configFile: false,
        logLevel: 'warn',
        plugins: [react()],
        build: { ssr: FIRST_SCREENS, outDir: serverOut, emptyOutDir: true, rolldownOptions: { treeshake: { manualPureFunctions: ['Type'] } } },
      });
      const module = pathToFileURL(path.join(serverOut, 'first-screens.js')).href;
      const json = execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(module)}); process.stdout.write(JSON.stringify(await m.renderFirstScreens()));`], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
      fs.writeFileSync(path.join(outDir, 'first-screens.json'), json);
    },
  };
}

export default defineConfig({
  plugins: [react(), precompress(), earlyStartFirst(), callScreenFiles(), firstScreens()],
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
    rolldownOptions: {
      input: { index: 'index.html', 'early-start': EARLY_START },
      treeshake: { manualPureFunctions: ['Type'] },
      output: { codeSplitting: { groups: [{ name: LIBRARY_CHUNK, test: LIBRARY_MODULES }] } },
    },
  },
  server: { proxy: { '/api': 'http://localhost:3000', '/idp': 'http://localhost:3000', '/assets/config': 'http://localhost:3000', '/chat': { target: 'ws://localhost:3000', ws: true }, '/media': { target: 'ws://localhost:3000', ws: true } } },
});
