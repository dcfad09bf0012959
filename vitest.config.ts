import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Two runs of one suite. `npm test` (the projects "fast" and "fast-process") is what a developer runs before each
 * commit: every unit, emulator and CLI test, the CLI called in the test's process where the
 * process itself is not what is proven. `npm run test:full` (CI's, `.ci/run`) adds the project
 * "full": what only a real process, a real browser or a real scale proves, and what takes
 * minutes by nature. A test file is in exactly one of the two: FULL names the full run's files.
 * `npm test` runs `--project 'fast*'`, `npm run test:full` every project.
 */
const FULL = [
  // Chromium drives the HTML report (Debian's chromium; skipped with a message where it is missing).
  'test/browser/**/*.test.ts',
  // The packed tarball installed into an empty prefix and run with an empty environment.
  'test/package/**/*.test.ts',
  // `npm run bench -- --scale small` end to end: emulators, zonewarden, the SDK scripts.
  'test/bench/bench-smoke.test.ts',
  'test/bench/sdk.test.ts',
  // Real processes: signals, a kill mid-write, pipes, users of their own, the scheduler service,
  // custom rules loaded through Node's module hooks by the built CLI.
  'test/**/*.process.test.ts',
  'test/cli/snapshot-stress.test.ts',
  'test/cli/schedule.test.ts',
  'test/cli/stdout.test.ts',
  'test/cli/custom-rules.test.ts',
  'test/cli/custom-rule-edits.test.ts',
  'test/policy/custom-rules.test.ts',
  // The nightly job's metrics checked by Debian's promtool and served by its node_exporter (real
  // processes), on a generated organisation of 300 zones, and the scheduler service writing them.
  'test/metrics/prometheus.test.ts',
  // Properties at the scale of an organisation (hundreds of zones); npm test keeps them at a small size.
  'test/**/*.scale.test.ts',
];

/** Files of npm test that change what a worker thread may not (process.umask): run in a process. */
const PROCESS_WIDE = ['test/metrics/exposition.test.ts'];

// Every core: vitest's default leaves one free (one worker on two cores). The tests wait on their
// emulators and databases in the same worker, so each core runs a file of its own.
const WORKERS = Math.max(2, availableParallelism());

export default defineConfig({
  test: {
    // A guard against a test that hangs, not a speed target: with three suites side by side on two
    // cores (and more work beside them) the property test of incremental nights and the browser
    // tests' setup took past 120 s. Speed is npm run bench's; CI's own limit is 90 minutes.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    maxWorkers: WORKERS,
    reporters: ['default', './test/support/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'fast',
          // docs/examples: the example custom rule's table test, run against the built package (zonewarden/rules).
          include: ['test/**/*.test.ts', 'docs/examples/**/*.test.js'],
          exclude: [...FULL, ...PROCESS_WIDE],
          // Worker threads start faster than processes; better-sqlite3 and the emulators work in them.
          pool: 'threads',
        },
      },
      {
        extends: true,
        test: { name: 'fast-process', include: PROCESS_WIDE, pool: 'forks' },
      },
      {
        extends: true,
        test: {
          name: 'full',
          include: FULL,
          // Processes: these tests send signals, change users and spawn the built CLI.
          pool: 'forks',
        },
      },
    ],
  },
});
