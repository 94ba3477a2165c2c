import { defineConfig } from 'vitest/config';
import unit from '../../vitest.config';

// The unit and integration tests that exercise the folders Stryker mutates (test/mutation/stryker.config.mjs):
// never the browser tests, and not the CDK synth, lint or ops-tool tests, which import nothing mutated.
// The rest (timeouts, environment) is the unit config's; `include` replaces its list rather than adding to it.
export default defineConfig({
  test: {
    ...unit.test,
    include: ['test/lambdas/**/*.test.ts', 'test/web/**/*.test.{ts,tsx}'],
    exclude: ['test/e2e/**', 'node_modules/**'],
  },
});
