import { describe, expect, it } from 'vitest';
import { PAGE_PRELOADS, preloadFiles, withPreloads, type BuildManifest } from './page-preloads.ts';

const manifest: BuildManifest = {
  'index.html': { file: 'assets/index-a.js', isEntry: true, imports: ['_react.js'], dynamicImports: ['src/page.tsx'] },
  '_react.js': { file: 'assets/react-b.js' },
  '_shared.js': { file: 'assets/shared-c.js', imports: ['_react.js'] },
  'src/page.tsx': { file: 'assets/page-d.js', imports: ['_shared.js', '_react.js'], dynamicImports: ['src/chat.tsx'] },
  'src/session.ts': { file: 'assets/session-e.js', imports: ['_shared.js'], dynamicImports: ['../../node_modules/janus-gateway/janus.es.js'] },
  '../../node_modules/janus-gateway/janus.es.js': { file: 'assets/janus-f.js', imports: ['_runtime.js'] },
  '_runtime.js': { file: 'assets/runtime-h.js' },
  'src/chat.tsx': { file: 'assets/chat-g.js' },
  'src/styled.tsx': { file: 'assets/styled-i.js', imports: ['_shared.js', 'index.html'], css: ['assets/styled-j.css', 'assets/index-k.css'] },
};
manifest['index.html']!.css = ['assets/index-k.css'];

describe('page preloads', () => {
  it("are a page's chunks, its libraries' and what they import statically, and nothing the entry loads itself", () => {
    expect(preloadFiles(manifest, ['src/page.tsx', 'src/session.ts'], ['janus-gateway']).sort()).toEqual(
      ['assets/janus-f.js', 'assets/page-d.js', 'assets/runtime-h.js', 'assets/session-e.js', 'assets/shared-c.js'].sort(),
    );
    expect(preloadFiles(manifest, ['src/page.tsx'])).not.toContain('assets/chat-g.js');
    expect(preloadFiles(manifest, ['src/gone.tsx'])).toEqual([]);
    expect(preloadFiles(manifest, ['src/styled.tsx'])).toEqual(['assets/styled-i.js', 'assets/shared-c.js', 'assets/styled-j.css']);
  });

  it('go into the head, and each page has its own', () => {
    const html = '<html><head><title>x</title></head><body></body></html>';
    expect(withPreloads(html, ['assets/a.js'])).toBe('<html><head><title>x</title>    <link rel="modulepreload" crossorigin href="/assets/a.js">\n  </head><body></body></html>');
    expect(withPreloads(html, [])).toBe(html);
    expect(withPreloads(html, ['assets/b.css'])).toContain('<link rel="stylesheet" crossorigin href="/assets/b.css">');
    const conference = PAGE_PRELOADS[0]!.path;
    expect(['/meetings/abc/conference', '/meetings/abc/conference/', '/meetings/abc/conference?vmtest=1'].every((p) => conference.test(p))).toBe(true);
    expect(['/meetings/abc/conference/publicaccess', '/meetings/abc/lobby', '/meetings'].some((p) => conference.test(p))).toBe(false);
    const pageOf = (url: string) => PAGE_PRELOADS.filter((p) => p.path.test(url)).map((p) => p.sources[0]);
    expect(pageOf('/meetings')).toEqual(['src/features/meetings/pages/home-page.tsx']);
    expect(pageOf('/meetings/?x=1')).toEqual(['src/features/meetings/pages/home-page.tsx']);
    expect(pageOf('/meetings/abc/lobby')).toEqual(['src/features/lobby/pages/lobby-page.tsx']);
    expect(pageOf('/usersupport/troubleshooting')).toEqual(['src/features/info/pages/user-support-page.tsx']);
    expect(pageOf('/publicaccess/room1')).toEqual(['src/features/public-access/pages/public-access-page.tsx']);
    expect(pageOf('/meetings/abc/edit')).toEqual([]);
    expect(pageOf('/personaldataX')).toEqual([]);
  });
});
