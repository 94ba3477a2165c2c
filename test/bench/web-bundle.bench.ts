/**
 * The web bundle's weight: builds the app, then prints the initial JavaScript (the entry chunk and every
 * chunk it imports statically, gzip) and each chunk's size, from Vite's manifest. The speech SDK must be a
 * lazy chunk; the initial JS budget is 100 KB gzip. Exits non-zero when either does not hold.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildWeb, root } from './support/browser-bench';

interface ManifestChunk {
  readonly file: string;
  readonly name?: string;
  readonly src?: string;
  readonly isEntry?: boolean;
  readonly isDynamicEntry?: boolean;
  readonly imports?: readonly string[];
  readonly dynamicImports?: readonly string[];
  readonly css?: readonly string[];
}

const INITIAL_JS_BUDGET_BYTES = 100 * 1024;
const outDir = join(root, 'dist', 'web');

buildWeb();

const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<
  string,
  ManifestChunk
>;
const sizeOf = (file: string) => {
  const bytes = readFileSync(join(outDir, file));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

// The initial JS: the entry and its static imports, transitively (what the browser loads before Start).
const initial = new Set<string>();
const visit = (key: string) => {
  if (initial.has(key)) return;
  initial.add(key);
  for (const imported of manifest[key]?.imports ?? []) visit(imported);
};
for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);

const rows = Object.entries(manifest)
  .filter(([, chunk]) => chunk.file.endsWith('.js'))
  .map(([key, chunk]) => ({ key, chunk, ...sizeOf(chunk.file), initial: initial.has(key) }))
  .sort((a, b) => Number(b.initial) - Number(a.initial) || b.gzip - a.gzip);

console.log('chunk'.padEnd(64), 'load'.padEnd(8), 'raw'.padStart(10), 'gzip'.padStart(10));
for (const row of rows) {
  console.log(
    row.chunk.file.padEnd(64),
    (row.initial ? 'initial' : 'lazy').padEnd(8),
    kb(row.raw).padStart(10),
    kb(row.gzip).padStart(10),
  );
}
const css = [...new Set(rows.flatMap((row) => (row.initial ? (row.chunk.css ?? []) : [])))];
for (const file of css) {
  const size = sizeOf(file);
  console.log(file.padEnd(64), 'initial'.padEnd(8), kb(size.raw).padStart(10), kb(size.gzip).padStart(10));
}

const initialGzip = rows.filter((row) => row.initial).reduce((sum, row) => sum + row.gzip, 0);
console.log(`\ninitial JS (gzip): ${kb(initialGzip)} of a ${kb(INITIAL_JS_BUDGET_BYTES)} budget`);

const sdkInitial = rows.some(
  (row) => row.initial && /cognitiveservices/i.test(`${row.key} ${row.chunk.file}`),
);
const sdkLazy = rows.some((row) => !row.initial && /cognitiveservices/i.test(`${row.key} ${row.chunk.file}`));
console.log(
  `speech SDK: ${sdkInitial ? 'IN THE INITIAL BUNDLE' : sdkLazy ? 'lazy chunk, loaded on Start' : 'not found'}`,
);

if (initialGzip > INITIAL_JS_BUDGET_BYTES || sdkInitial || !sdkLazy) process.exitCode = 1;
