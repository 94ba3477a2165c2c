import { basename } from 'node:path';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Browser tests: Debian's Chromium headless shell (playwright-core), Firefox ESR (puppeteer-core over
// WebDriver BiDi) and WebKitGTK (W3C WebDriver), against the local server with the offline tutor. One
// browser and one local server per test file, the server on a port of its own (port 0), so files run side
// by side.
// Run after `npm run build` (`npm run test:e2e` does both).

/**
 * The files that take longest start first (the Azure files are mostly waiting: real audio, real
 * deadlines), so the shorter ones fill the other workers around them. Roughly in seconds on 2 cores.
 */
const LONGEST_FIRST: Readonly<Record<string, number>> = {
  'azure-speech-faults.e2e.ts': 80,
  'azure-speech.e2e.ts': 75,
  'webkit.e2e.ts': 50,
  'webkit-layout.e2e.ts': 50,
  'firefox.e2e.ts': 35,
  'look.e2e.ts': 25,
  'layout.e2e.ts': 20,
  'feedback.e2e.ts': 20,
};

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const weight = (file: TestSpecification) => LONGEST_FIRST[basename(file.moduleId)] ?? 10;
    return [...files].sort((a, b) => weight(b) - weight(a) || a.moduleId.localeCompare(b.moduleId));
  }
}

export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    // Bounds, not expectations: a browser test on two cores shared with the other steps of `npm run check`
    // (and, here, with other people) can take twice as long as it does alone. A test that finishes sooner
    // is not held back; one that hangs still fails.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // How long an `expect.poll` waits for the page to get there when the test names no bound (vitest's own
    // default, 1 s, is shorter than one busy moment of the machine).
    expect: { poll: { timeout: 10_000 } },
    // Three files at once on two cores: the browsers then keep both cores busy, and a fourth file only
    // slows the others down (docs/testing.md, "How long it takes"). E2E_WORKERS overrides it.
    fileParallelism: true,
    // A worker runs its files one after another in one process: playwright-core, puppeteer-core and the
    // local server's handlers load once per worker, not once per file (each file still starts its own
    // browser and local server, and stubs nothing in the process).
    isolate: false,
    maxWorkers: Number(process.env.E2E_WORKERS ?? 3),
    sequence: { sequencer: LongestFirst },
    // The SDK's notice that its 2027 releases need Node 22 is for operators, not test output.
    env: { LOG_LEVEL: 'silent', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
