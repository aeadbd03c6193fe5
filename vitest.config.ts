import os from 'node:os';
import { defineConfig } from 'vitest/config';

// One runner for every suite; the project decides where it may run (see scripts/test.sh).
export default defineConfig({
  test: {
    // A worker per core: vitest's default leaves one core to itself, which on a two-core machine ran the unit and
    // API files one at a time (161 s against 110 s with two, measured on 30 November). The browser files still go
    // one by one (fileParallelism below): each drives a Chromium and Janus of its own.
    maxWorkers: os.availableParallelism(),
    projects: [
      { test: { name: 'unit', include: ['packages/**/*.test.ts', 'apps/**/*.test.ts', 'apps/**/*.test.tsx', 'deploy/**/*.test.ts', 'bench/**/*.test.ts'], exclude: ['**/*.api.test.ts', '**/node_modules/**'], environment: 'node' } },
      { test: { name: 'api', include: ['apps/server/**/*.api.test.ts'], testTimeout: 60_000, hookTimeout: 180_000 } },
      { test: { name: 'e2e', include: ['e2e/**/*.spec.ts'], testTimeout: 120_000, hookTimeout: 180_000, fileParallelism: false } },
    ],
  },
});
