/**
 * The web bundle's weight: builds the app, then prints each chunk's size (gzip) from Vite's manifest and
 * the first load: the initial JavaScript (the entry chunk and every chunk it imports statically) and,
 * for a page in another language than English, that language's strings, which the first render waits for
 * (docs/behaviour.md §2.24). The budget (FIRST_LOAD_BUDGET_BYTES, 90 KB gzip) holds for the heaviest
 * language's first load.
 *
 * It also checks, from the initial chunks' own source maps, that the first load carries no other
 * language's strings, no speech words or pronunciation lexicon, no speech engine and no speech SDK; and
 * that every language but English is a lazy chunk of its own. Exits non-zero when any of it does not hold
 * (the browser suite's test/e2e/first-load.e2e.ts fails on the same).
 */
import { join } from 'node:path';
import { FIRST_LOAD_BUDGET_BYTES, kb, measureFirstLoad } from './support/first-load';
import { buildWeb, root } from './support/browser-bench';

buildWeb();
const load = measureFirstLoad(join(root, 'dist', 'web'));

console.log('chunk'.padEnd(64), 'load'.padEnd(9), 'raw'.padStart(10), 'gzip'.padStart(10));
for (const chunk of [...load.chunks, ...load.css]) {
  console.log(
    chunk.file.padEnd(64),
    chunk.load.padEnd(9),
    kb(chunk.raw).padStart(10),
    kb(chunk.gzip).padStart(10),
  );
}

console.log(`\ninitial JS (gzip): ${kb(load.initialGzip)}, an English page's first load`);
console.log(
  `first load, heaviest language (${load.heaviest.locale}): ${kb(load.heaviest.firstLoadGzip)} of a ${kb(FIRST_LOAD_BUDGET_BYTES)} budget`,
);
for (const { what, found } of load.contents) {
  console.log(`${what}: ${found === null ? 'not in the first load' : `IN THE FIRST LOAD (${found})`}`);
}

for (const failure of load.failures) console.log(`FAILED: ${failure}`);
if (load.failures.length > 0) process.exitCode = 1;
