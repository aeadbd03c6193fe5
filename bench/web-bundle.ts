/**
 * Initial web bundle size: the scripts and styles index.html loads before any route runs (gzip, as served over
 * the wire; the server sends the build's precompressed copies), and the largest lazy chunk for comparison. Each file
 * counts once: the early-start script is named twice (a script and a modulepreload). Target: initial < 100 KB gzip
 * (issue 48: a phone on a slow mobile network; it was < 150 KB).
 * Usage: npm run build && node --import tsx bench/web-bundle.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const dist = process.env.WEB_DIST ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/web/dist');

export const TARGET_KB = 100;

export interface BundleFigures {
  initialGzipKb: number;
  initialFiles: string[];
  largestLazyChunk: { file: string; gzipKb: number } | null;
}

const gzipKb = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(dist, file)), { level: 9 }).length / 1024;

export function measureBundle(): BundleFigures {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const initialFiles = [...new Set([...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!))];
  const initial = initialFiles.reduce((n, f) => n + gzipKb(f), 0);
  const lazy = fs
    .readdirSync(path.join(dist, 'assets'))
    .filter((f) => f.endsWith('.js') && !initialFiles.includes(`assets/${f}`))
    .map((f) => ({ file: `assets/${f}`, gzipKb: gzipKb(`assets/${f}`) }))
    .sort((a, b) => b.gzipKb - a.gzipKb);
  return { initialGzipKb: Math.round(initial * 10) / 10, initialFiles, largestLazyChunk: lazy[0] ? { ...lazy[0], gzipKb: Math.round(lazy[0].gzipKb * 10) / 10 } : null };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const f = measureBundle();
  console.log(`initial web bundle: ${f.initialGzipKb} KB gzip (${f.initialFiles.join(', ')}), target < ${TARGET_KB} KB: ${f.initialGzipKb < TARGET_KB ? 'met' : 'NOT met'}`);
  if (f.largestLazyChunk) console.log(`largest lazy chunk: ${f.largestLazyChunk.file} ${f.largestLazyChunk.gzipKb} KB gzip`);
  // One machine-readable line for `npm run bench` (bench/run-all.ts).
  console.log(`BENCH_JSON ${JSON.stringify({ bench: 'web-bundle', figures: f })}`);
}
