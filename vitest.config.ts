import { defineConfig } from 'vitest/config';

// One runner for every suite; the project decides where it may run (see scripts/test.sh).
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['packages/**/*.test.ts', 'apps/**/*.test.ts', 'apps/**/*.test.tsx', 'deploy/**/*.test.ts'], exclude: ['**/*.api.test.ts', '**/node_modules/**'], environment: 'node' } },
      { test: { name: 'api', include: ['apps/server/**/*.api.test.ts'], testTimeout: 60_000, hookTimeout: 180_000 } },
      { test: { name: 'e2e', include: ['e2e/**/*.spec.ts'], testTimeout: 120_000, hookTimeout: 180_000, fileParallelism: false } },
    ],
  },
});
