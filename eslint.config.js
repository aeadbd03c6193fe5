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
const fence = (files, ignores, packages) => ({
  files,
  ignores,
  rules: {
    'no-restricted-imports': ['error', {
      paths: packages.map((name) => ({ name, message: `Only ${HOMES[name]} may import ${name}.` })),
      patterns: packages.map((name) => ({ group: [`${name}/*`], message: `Only ${HOMES[name]} may import ${name}.` })),
    }],
  },
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '**/*.d.ts'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { videomote: { rules: { 'kebab-case-files': kebabCaseFiles } } },
    rules: {
      'videomote/kebab-case-files': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  fence(['apps/web/**/*.{ts,tsx}'], ['apps/web/src/features/conference/media/**'], ['janus-gateway', 'webrtc-adapter']),
  fence(['apps/server/**/*.ts'], ['apps/server/src/modules/media/janus/**', 'apps/server/src/modules/identity/**'], ['janode', 'oidc-provider', 'openid-client']),
  fence(['apps/server/src/modules/media/janus/**'], [], ['oidc-provider', 'openid-client']),
  fence(['apps/server/src/modules/identity/**'], [], ['janode']),
  fence(['apps/server/**/*.ts'], ['apps/server/src/modules/directory/**'], ['ldapts']),
);
