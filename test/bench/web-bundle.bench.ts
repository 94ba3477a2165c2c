/**
 * The web bundle's weight: builds the app, then prints each chunk's size (gzip) from Vite's manifest and
 * the first load: the initial JavaScript (the entry chunk and every chunk it imports statically) and,
 * for a page in another language than English, that language's strings, which the first render waits for
 * (docs/behaviour.md §2.24). The budget holds for the heaviest language's first load: 90 KB gzip.
 *
 * It also checks, from the initial chunks' own source maps, that the first load carries no other
 * language's strings, no speech words or pronunciation lexicon, no speech engine and no speech SDK; and
 * that every language but English is a lazy chunk of its own. Exits non-zero when any of it does not hold.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { LOCALES } from '#contract/languages';
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

const FIRST_LOAD_BUDGET_BYTES = 90 * 1024;
const outDir = join(root, 'dist', 'web');

/** What the first load must not carry: each loads with its language, or with speech on Start. */
const NOT_IN_THE_FIRST_LOAD: ReadonlyArray<readonly [what: string, source: RegExp]> = [
  ['another language than English', /i18n\/languages\/(?!en-US\.)/],
  ['the speech words', /speech\/speakable-words\./],
  ['the pronunciation lexicon', /speech\/pronunciation-lexicon\./],
  ['the sentence cutter', /conversation\/sentences\./],
  ['a speech engine', /speech\/(?:browser|azure)-engine\./],
  ['the speech SDK', /cognitiveservices/i],
];

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

// The initial JS: the entry and its static imports, transitively (what the browser loads before anything).
const initial = new Set<string>();
const visit = (key: string) => {
  if (initial.has(key)) return;
  initial.add(key);
  for (const imported of manifest[key]?.imports ?? []) visit(imported);
};
for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);

/** The chunk of each language but English (which rides in the entry: it is the fallback). */
const languageChunk = (locale: string) => manifest[`src/i18n/languages/${locale}.ts`];

const rows = Object.entries(manifest)
  .filter(([, chunk]) => chunk.file.endsWith('.js'))
  .map(([key, chunk]) => ({ key, chunk, ...sizeOf(chunk.file), initial: initial.has(key) }))
  .sort((a, b) => Number(b.initial) - Number(a.initial) || b.gzip - a.gzip);

const loadOf = (row: (typeof rows)[number]) =>
  row.initial ? 'initial' : row.key.startsWith('src/i18n/languages/') ? 'language' : 'lazy';
console.log('chunk'.padEnd(64), 'load'.padEnd(9), 'raw'.padStart(10), 'gzip'.padStart(10));
for (const row of rows) {
  console.log(
    row.chunk.file.padEnd(64),
    loadOf(row).padEnd(9),
    kb(row.raw).padStart(10),
    kb(row.gzip).padStart(10),
  );
}
const css = [...new Set(rows.flatMap((row) => (row.initial ? (row.chunk.css ?? []) : [])))];
for (const file of css) {
  const size = sizeOf(file);
  console.log(file.padEnd(64), 'initial'.padEnd(9), kb(size.raw).padStart(10), kb(size.gzip).padStart(10));
}

const failures: string[] = [];

const initialGzip = rows.filter((row) => row.initial).reduce((sum, row) => sum + row.gzip, 0);
const languages = LOCALES.filter((locale) => locale !== 'en-US').map((locale) => {
  const chunk = languageChunk(locale);
  if (!chunk?.isDynamicEntry || initial.has(`src/i18n/languages/${locale}.ts`)) {
    failures.push(`${locale} is not a lazy chunk of its own`);
  }
  return { locale, gzip: chunk ? sizeOf(chunk.file).gzip : 0 };
});
const heaviest = languages.reduce((most, language) => (language.gzip > most.gzip ? language : most));
const firstLoad = initialGzip + heaviest.gzip;

console.log(`\ninitial JS (gzip): ${kb(initialGzip)}, an English page's first load`);
console.log(
  `first load, heaviest language (${heaviest.locale}): ${kb(firstLoad)} of a ${kb(FIRST_LOAD_BUDGET_BYTES)} budget`,
);
if (firstLoad > FIRST_LOAD_BUDGET_BYTES) failures.push('the first load is over its budget');

// What the initial chunks were made of, from their (hidden) source maps.
const initialSources = rows
  .filter((row) => row.initial)
  .flatMap((row) => {
    const map = join(outDir, `${row.chunk.file}.map`);
    if (!existsSync(map)) {
      failures.push(`${row.chunk.file} has no source map to check`);
      return [];
    }
    return (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
  });
for (const [what, source] of NOT_IN_THE_FIRST_LOAD) {
  const found = initialSources.filter((path) => source.test(path));
  console.log(`${what}: ${found.length === 0 ? 'not in the first load' : `IN THE FIRST LOAD (${found[0]})`}`);
  if (found.length > 0) failures.push(`${what} is in the first load`);
}
const sdkLazy = rows.some((row) => !row.initial && /cognitiveservices/i.test(`${row.key} ${row.chunk.file}`));
if (!sdkLazy) failures.push('the speech SDK is not a lazy chunk');

for (const failure of failures) console.log(`FAILED: ${failure}`);
if (failures.length > 0) process.exitCode = 1;
