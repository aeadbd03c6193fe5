/** One chunk of Vite's build manifest (`dist/.vite/manifest.json`), keyed by its source. */
export interface ManifestChunk {
  file: string;
  imports?: string[];
  dynamicImports?: string[];
  /** The styles the chunk needs; Vite's loader adds them before it runs the chunk. */
  css?: string[];
  isEntry?: boolean;
}
export type BuildManifest = Record<string, ManifestChunk>;

/** A path, with or without a trailing slash, query or fragment. */
const page = (pattern: string) => new RegExp(`^${pattern}/?([?#]|$)`);

/**
 * Pages whose code is loaded only once the app has started (lazy routes): the sources to fetch alongside the app's
 * own bundle, and the libraries (npm packages) the page imports on demand. Without this the page's chunk is asked
 * for only once the bundle has arrived and run: one more round trip before the first paint, which on a slow mobile
 * network is most of a second (Lighthouse's slow 4G: 150 ms a round trip). The meeting screen: its page, its chat
 * and participants panels, and the janus.js its media session imports, otherwise two steps after the bundle (the
 * page's chunk, then the library), fetched in parallel with it instead.
 */
export const PAGE_PRELOADS: { path: RegExp; sources: string[]; libraries: string[] }[] = [
  {
    path: page('/meetings/[^/?#]+/conference'),
    sources: ['src/features/conference/pages/conference-page.tsx', 'src/app/conference-panels.tsx'],
    libraries: ['janus-gateway'],
  },
  { path: page('/meetings'), sources: ['src/features/meetings/pages/home-page.tsx'], libraries: [] },
  { path: page('/meetings/new'), sources: ['src/features/meetings/pages/meeting-form-page.tsx'], libraries: [] },
  { path: page('/meetings/[^/?#]+/lobby'), sources: ['src/features/lobby/pages/lobby-page.tsx'], libraries: [] },
  { path: page('/publicaccess/[^/?#]+'), sources: ['src/features/public-access/pages/public-access-page.tsx'], libraries: [] },
  { path: page('/personaldata'), sources: ['src/features/info/pages/personal-data-page.tsx'], libraries: [] },
  { path: page('/accessability'), sources: ['src/features/info/pages/accessibility-page.tsx'], libraries: [] },
  { path: page('/usersupport(/[a-z]+)?'), sources: ['src/features/info/pages/user-support-page.tsx'], libraries: [] },
];

/**
 * The files to preload: the chunks of `sources` and of the `libraries`' entries, and everything they import
 * statically, and the styles of all these, without what the app's entry already loads. (Vite's loader fetches a
 * page's styles only once the app has run, one round trip later; it does not fetch a style the page already links.)
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
  const entryStyles = new Set([...entry].flatMap((k) => manifest[k]!.css ?? []));
  const page = [...closure([...sources, ...libraryKeys])].filter((k) => !entry.has(k));
  const styles = [...new Set(page.flatMap((k) => manifest[k]!.css ?? []))].filter((f) => !entryStyles.has(f));
  return [...page.map((k) => manifest[k]!.file), ...styles];
}

/** index.html with `<link rel="modulepreload">` for the scripts of `files` and a stylesheet link for its styles, before its `</head>`. */
export function withPreloads(html: string, files: string[]): string {
  if (!files.length) return html;
  const links = files
    .map((f) => (f.endsWith('.css') ? `    <link rel="stylesheet" crossorigin href="/${f}">\n` : `    <link rel="modulepreload" crossorigin href="/${f}">\n`))
    .join('');
  return html.replace('</head>', `${links}  </head>`);
}
