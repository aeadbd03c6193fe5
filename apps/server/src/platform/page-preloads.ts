/** One chunk of Vite's build manifest (`dist/.vite/manifest.json`), keyed by its source. */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}
export type BuildManifest = Record<string, ManifestChunk>;

/**
 * Pages whose code is loaded only once the app has started (lazy routes): the sources to fetch alongside the app's
 * own bundle, and the libraries (npm packages) the page imports on demand. The meeting screen: its page, its chat
 * and participants panels, and the janus.js its media session imports, otherwise two steps after the bundle (the
 * page's chunk, then the library), fetched in parallel with it instead.
 */
export const PAGE_PRELOADS: { path: RegExp; sources: string[]; libraries: string[] }[] = [
  {
    path: /^\/meetings\/[^/?#]+\/conference\/?(\?|$)/,
    sources: ['src/features/conference/pages/conference-page.tsx', 'src/app/conference-panels.tsx'],
    libraries: ['janus-gateway'],
  },
];

/**
 * The files to preload: the chunks of `sources` and of the `libraries`' entries, and everything they import
 * statically, without what the app's entry already loads.
 */
export function preloadFiles(manifest: BuildManifest, sources: string[], libraries: string[] = []): string[] {
  const closure = (starts: string[]): Set<string> => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      const chunk = manifest[key];
      if (seen.has(key) || !chunk) return;
      seen.add(key);
      for (const k of chunk.imports ?? []) visit(k);
    };
    starts.forEach(visit);
    return seen;
  };
  const entry = closure(Object.entries(manifest).filter(([, c]) => c.isEntry).map(([k]) => k));
  const libraryKeys = Object.keys(manifest).filter((k) => libraries.some((l) => k.includes(`node_modules/${l}/`)));
  return [...closure([...sources, ...libraryKeys])].filter((k) => !entry.has(k)).map((k) => manifest[k]!.file);
}

/** index.html with `<link rel="modulepreload">` for `files` before its `</head>`. */
export function withPreloads(html: string, files: string[]): string {
  if (!files.length) return html;
  const links = files.map((f) => `    <link rel="modulepreload" crossorigin href="/${f}">\n`).join('');
  return html.replace('</head>', `${links}  </head>`);
}
