import { defineConfig } from 'vitest/config';

// Unit and integration tests: handlers against dynalite and loopback fakes, the web's reducer and hooks
// (jsdom, chosen per file with `// @vitest-environment jsdom`), and the CDK stack at synth.
export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // The SDK's notice that its 2027 releases need Node 22 is for operators, not test output.
    env: { LOG_LEVEL: 'silent', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
