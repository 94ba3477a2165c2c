/**
 * `npm run bench`: runs every `bench/*.bench.ts` in name order, each in its own Node process (so one
 * benchmark's warm caches and leftover sockets cannot skew the next), and lets each print its figures.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const benchDir = fileURLToPath(new URL('.', import.meta.url));
const files = readdirSync(benchDir)
  .filter((name) => name.endsWith('.bench.ts'))
  .sort();

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
