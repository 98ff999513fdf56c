import { defineConfig } from 'vitest/config';

// CLI tests spawn the built bin (a cold Node start plus the engine); on a loaded 2-core CI machine a
// single test can take several seconds, so the per-test limit is generous. Hangs are still caught.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
