import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // docs/examples: the example custom rule's table test, run against the built package (zonewarden/rules).
    include: ['test/**/*.test.ts', 'docs/examples/**/*.test.js'],
    // A guard against a test that hangs, not a speed target: on a busy machine (two suites side by
    // side on two cores) the slowest storage and CLI tests took past 30 s. Speed is npm run bench's.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    reporters: ['default', './test/support/summary-reporter.ts'],
  },
});
