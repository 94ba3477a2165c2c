import { defineConfig } from 'vitest/config';
import unit from '../../vitest.config';

// The unit and integration tests that exercise the folders Stryker mutates (test/mutation/stryker.config.mjs):
// never the browser tests, and not the CDK synth, lint or ops-tool tests, which import nothing mutated.
// The rest (timeouts, environment) is the unit config's; `include` replaces its list rather than adding to it.
// The unit config's projects (unit, unit-isolated, and gc with --expose-gc) are left out: one plain run,
// every file isolated, without the gc tests; and its worker count, since Stryker runs its own (concurrency).
const { projects: _projects, maxWorkers: _maxWorkers, ...shared } = unit.test ?? {};

export default defineConfig({
  // Stryker's sandbox links node_modules from outside its own root, and Vite refuses files outside the
  // root: the Speech SDK's worklet (`?url` in azure-microphone.ts) would fail to load, and Stryker counts a
  // test file that fails to load as no tests at all (every azure-engine test file imports it).
  server: { fs: { strict: false } },
  test: {
    ...shared,
    include: ['test/lambdas/**/*.test.ts', 'test/web/**/*.test.{ts,tsx}'],
    exclude: ['test/e2e/**', 'node_modules/**', 'test/**/*.gc.test.ts'],
  },
});
