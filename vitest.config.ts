import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // docs/examples: the example custom rule's table test, run against the built package (zonewarden/rules).
    include: ['test/**/*.test.ts', 'docs/examples/**/*.test.js'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
