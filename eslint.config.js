import path from 'node:path';
import tseslint from 'typescript-eslint';

/** File names are kebab-case (CONVENTIONS.md §10). */
const kebabCaseFiles = {
  meta: { type: 'suggestion', schema: [] },
  create(context) {
    const name = context.filename.split('/').pop() ?? '';
    const stem = name.replace(/(\.(test|api\.test|spec|config))?\.(tsx?|jsx?|mjs)$/, '');
    return {
      Program(node) {
        if (!/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9-]+)*$/.test(stem)) context.report({ node, message: `File name "${name}" must be kebab-case` });
      },
    };
  },
};

/** Each vendor engine lives in exactly one folder (CONVENTIONS.md §6). */
const HOMES = {
  'janus-gateway': 'apps/web/src/features/conference/media/',
  'webrtc-adapter': 'apps/web/src/features/conference/media/',
  janode: 'apps/server/src/modules/media/janus/',
  'oidc-provider': 'apps/server/src/modules/identity/',
  'openid-client': 'apps/server/src/modules/identity/',
  ldapts: 'apps/server/src/modules/directory/',
};

const SERVER_MODULE = /^apps\/server\/src\/modules\/([^/]+)\//;
const WEB_FEATURE = /^apps\/web\/src\/features\/([^/]+)\//;
/** Who is signed in is read by every page: the session feature is the one every other feature may use. */
const SHARED_FEATURES = ['session'];
/** Tests build the whole app and arrange data through any module (testing/ and *.test.ts). */
const isTest = (file) => /\.test\.tsx?$/.test(file) || file.startsWith('apps/server/src/testing/');

/**
 * Which file may import what, in one rule: several `no-restricted-imports` blocks matching one file would override
 * each other (flat config keeps the last), so every fence is checked here. `file` and `target` are repository-relative
 * paths (a relative import resolved, a package import as written); a fence answers a message when the import is refused.
 */
const FENCES = [
  // A vendor engine only in its home folder.
  (file, target) => {
    const pkg = Object.keys(HOMES).find((name) => target === name || target.startsWith(`${name}/`));
    // Within the app the engine belongs to; benchmarks and tests outside apps/ may drive it directly.
    const app = pkg && HOMES[pkg].split('/').slice(0, 2).join('/') + '/';
    return pkg && file.startsWith(app) && !file.startsWith(HOMES[pkg]) ? `Only ${HOMES[pkg]} may import ${pkg}.` : null;
  },
  // Dependencies point inward: a module declares what it needs (MeetingsDeps, MediaDeps), never the app that builds it.
  (file, target) => (SERVER_MODULE.test(file) && !isTest(file) && target === 'apps/server/src/app.ts' ? 'Modules never import the composition root (app.ts): declare the narrow dependencies you need.' : null),
  // A module's public surface is its service: another module's SQL and routes are its own.
  (file, target) => {
    const from = SERVER_MODULE.exec(file)?.[1];
    const to = SERVER_MODULE.exec(target)?.[1];
    if (!from || !to || from === to || isTest(file) || !/\.(repository|routes)\.ts$/.test(target)) return null;
    return `The ${to} module's repository and routes are its own: use its service from ${from}.`;
  },
  // Web features do not reach into each other; app/ composes them.
  (file, target) => {
    const from = WEB_FEATURE.exec(file)?.[1];
    const to = WEB_FEATURE.exec(target)?.[1];
    return from && to && from !== to && !SHARED_FEATURES.includes(to) ? `Feature ${from} may not import feature ${to}: compose them in app/, or move what both need to lib/ or components/.` : null;
  },
];

const boundaries = {
  meta: { type: 'problem', schema: [] },
  create(context) {
    const root = context.cwd;
    const file = path.relative(root, context.filename).split(path.sep).join('/');
    const check = (node) => {
      const spec = node.source?.value;
      if (typeof spec !== 'string') return;
      const target = spec.startsWith('.') ? path.relative(root, path.resolve(path.dirname(context.filename), spec)).split(path.sep).join('/') : spec;
      for (const fence of FENCES) {
        const message = fence(file, target);
        if (message) context.report({ node: node.source, message });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/*.d.ts'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { videomote: { rules: { 'kebab-case-files': kebabCaseFiles, boundaries } } },
    rules: {
      'videomote/kebab-case-files': 'error',
      'videomote/boundaries': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
