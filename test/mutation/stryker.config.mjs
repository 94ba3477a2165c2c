// StrykerJS mutation testing (`npm run test:mutation`, docs/testing.md "Mutation testing"): small changes
// to the product code in the folders below, each run against the unit tests that cover it; a change no
// test notices is a missing test. Kept under test/ with its vitest config, so the top level stays as
// docs/architecture.md lays it out.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // related: each mutant's file is tested by the test files that import it (vitest related), so a run
  // over one folder starts with only that folder's tests.
  vitest: { configFile: 'test/mutation/vitest.config.ts', related: true },
  mutate: [
    'lambdas/http/**/*.ts',
    'lambdas/lib/**/*.ts',
    'lambdas/speech/**/*.ts',
    'lambdas/store/**/*.ts',
    'lambdas/tutor/**/*.ts',
    'web/src/conversation/**/*.ts',
    'web/src/speech/**/*.ts',
  ],
  // Only what the tests import is copied to the sandbox (node_modules is linked, not copied).
  ignorePatterns: ['dist', 'cdk.out', '.data', 'test-results', 'test/e2e', '.ci', 'reports'],
  coverageAnalysis: 'perTest',
  // Mutants in module-level constants run every test; they are few and the run is long enough.
  ignoreStatic: true,
  // The machine is shared: two test workers at most.
  concurrency: 2,
  // Later runs re-test only the mutants whose code or covering tests changed.
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  // A mutant that loops or waits for ever is stopped this long past its tests' own time (netTime × 1.5).
  timeoutMS: 3_000,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // The score per folder and file, and in total; the surviving mutants are in the HTML report.
  clearTextReporter: { reportMutants: false, reportTests: false, reportScoreTable: true },
  thresholds: { high: 90, low: 85, break: null },
  // The sandboxes (copies of the tree) go here and are deleted after the run; reports/ keeps the results.
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
