import { defineConfig } from 'vitest/config';

// Browser tests: real Chromium (Debian's /usr/bin/chromium) driven by playwright-core, and real Firefox
// (Debian's /usr/bin/firefox-esr) driven by puppeteer-core over WebDriver BiDi, against the local server
// with the offline tutor. One browser per test file. Run after `npm run build`.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // The SDK's notice that its 2027 releases need Node 22 is for operators, not test output.
    env: { LOG_LEVEL: 'silent', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
