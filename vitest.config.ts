import { defineConfig } from 'vitest/config';

// Unit and integration tests: handlers against dynalite and loopback fakes, the web's reducer and hooks
// (jsdom, chosen per file with `// @vitest-environment jsdom`), and the CDK stack at synth. Files named
// `*.gc.test.ts` run in their own project whose workers start with `--expose-gc`, so a test can call
// `gc()` to prove a deadline survives a collection.
export default defineConfig({
  test: {
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // The SDK's notice that its 2027 releases need Node 22 is for operators, not test output.
    env: { LOG_LEVEL: 'silent', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/**/*.test.{ts,tsx}'], exclude: ['test/**/*.gc.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'gc', include: ['test/**/*.gc.test.ts'], pool: 'forks', execArgv: ['--expose-gc'] },
      },
    ],
  },
});
