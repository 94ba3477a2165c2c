/**
 * `npm run bench`: runs every `test/bench/*.bench.ts` in name order, each in its own Node process (so one
 * benchmark's warm caches and leftover sockets cannot skew the next), and lets each print its figures.
 * `npm run bench -- web-bundle api` runs only the benches whose names contain one of the words given.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const USAGE = `Usage: npm run bench [-- <word>…]

Runs each test/bench/*.bench.ts in its own process, in name order, and prints its figures.
With words, runs only the benches whose file names contain one of them (e.g. web-bundle).
`;

const words = process.argv.slice(2);
if (words.includes('--help') || words.includes('-h')) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const files = readdirSync(benchDir)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => words.length === 0 || words.some((word) => name.includes(word)))
  .sort();
if (files.length === 0) {
  process.stderr.write(`No bench matches ${words.join(', ')}.\n${USAGE}`);
  process.exit(1);
}

let failed = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(benchDir, file)], {
    stdio: 'inherit',
    // The SDK's notice about its future Node requirement would be repeated by every child process.
    env: { ...process.env, LOG_LEVEL: 'silent', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  });
  if (run.status !== 0) {
    failed += 1;
    console.error(`${file} failed (exit ${run.status ?? run.signal})`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
