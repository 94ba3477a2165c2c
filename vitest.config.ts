import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Unit and integration tests: handlers against dynalite and loopback fakes, the web's reducer and hooks
// (jsdom, chosen per file with `// @vitest-environment jsdom`), and the CDK stack at synth.
//
// Three projects, so the suite spends its time on tests rather than on starting them again:
// - `unit`: files that leave nothing behind share their workers and the modules they import (no
//   isolation: a module such as aws-cdk-lib or the lessons loads once per worker, not once per file).
// - `unit-isolated`: files that change what the next file in the worker would see (module mocks, fake
//   timers, spies not put back, stubbed globals or environment, a DOM environment) each get a fresh
//   worker, as vitest does by default. Which files those are is read from their text (needsIsolation
//   below), so a new test that starts stubbing is isolated without anyone remembering to list it.
// - `gc`: files named `*.gc.test.ts`, whose workers start with `--expose-gc`, so a test can call `gc()` to
//   prove a deadline survives a collection.

/** What in a test file's text means it must run in a worker of its own. */
const ISOLATED =
  /vi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers|resetModules)\b|process\.env(\.\w+|\[[^\]]+\])\s*=[^=]|delete process\.env|@vitest-environment|globalThis\.\w+\s*=[^=]|Object\.defineProperty\((globalThis|window|navigator)\b/;

/**
 * Spies leave nothing behind in a file that puts them back (restoreAllMocks or mockRestore); in any other
 * file they mean a worker of its own too. Fake timers always do, even put back: a timer loop another file
 * left running in a shared worker would land on them (runAllTimers then never ends).
 */
function needsIsolation(text: string): boolean {
  return (
    ISOLATED.test(text) || (/vi\.spyOn\b/.test(text) && !/vi\.restoreAllMocks\(|\.mockRestore\(/.test(text))
  );
}

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/** The unit test files under test/, as paths from the repository's root (the gc and browser files aside). */
function unitTestFiles(): string[] {
  return readdirSync(join(ROOT, 'test'), { withFileTypes: true, recursive: true })
    .filter(
      (entry) => entry.isFile() && /\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.gc.test.ts'),
    )
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((file) => !file.startsWith(join('test', 'e2e')));
}

const files = unitTestFiles();
const isolated = files.filter((file) => needsIsolation(readFileSync(join(ROOT, file), 'utf8')));
const shared = files.filter((file) => !isolated.includes(file));

export default defineConfig({
  test: {
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // Every core (vitest's own default leaves one free, which on two cores is a single lane).
    maxWorkers: availableParallelism(),
    // The SDK's notice that its 2027 releases need Node 22 is for operators, not test output.
    env: { LOG_LEVEL: 'silent', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    projects: [
      { extends: true, test: { name: 'unit', include: shared, isolate: false } },
      { extends: true, test: { name: 'unit-isolated', include: isolated } },
      {
        extends: true,
        test: { name: 'gc', include: ['test/**/*.gc.test.ts'], pool: 'forks', execArgv: ['--expose-gc'] },
      },
    ],
  },
});
