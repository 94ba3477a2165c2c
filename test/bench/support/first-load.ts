/**
 * The first load's weight and make-up, read from a web build (`dist/web`: Vite's manifest and the chunks'
 * hidden source maps). `npm run bench` (web-bundle.bench.ts) prints it and fails on any breach; the
 * browser suite's build test (test/e2e/first-load.e2e.ts) fails on the same breaches, so a first load over
 * its budget stops `npm run check` too, not only the bench.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { LOCALES, type Locale } from '#contract/languages';

/**
 * The budget (docs/behaviour.md §2.24): the initial JavaScript plus the page language's own chunk, which
 * the first render waits for, for the heaviest language, in gzip bytes. A React 19 page that says hello
 * is about 69 KB; the app's own code, English and the rest fit in the other 21.
 */
export const FIRST_LOAD_BUDGET_BYTES = 90 * 1024;

interface ManifestChunk {
  readonly file: string;
  readonly isEntry?: boolean;
  readonly isDynamicEntry?: boolean;
  readonly imports?: readonly string[];
  readonly css?: readonly string[];
}

export type Load = 'initial' | 'language' | 'lazy';

export interface Chunk {
  /** The source that names the chunk in the manifest (e.g. `src/i18n/languages/ja-JP.ts`). */
  readonly key: string;
  /** Where it is in the build, e.g. `assets/ja-JP-B5I5REAx.js`. */
  readonly file: string;
  readonly load: Load;
  readonly raw: number;
  readonly gzip: number;
}

export interface FirstLoad {
  /** Every JavaScript chunk, the initial ones first, then the heaviest first. */
  readonly chunks: readonly Chunk[];
  /** The stylesheets the first load carries. */
  readonly css: readonly Chunk[];
  /** The initial JavaScript: the entry and every chunk it imports statically (an English page's load). */
  readonly initialGzip: number;
  /** The language whose chunk is heaviest, and the first load of a page in it. */
  readonly heaviest: { readonly locale: Locale; readonly firstLoadGzip: number };
  /** What the first load must not carry, and whether it does (the first source found, or null). */
  readonly contents: ReadonlyArray<{ readonly what: string; readonly found: string | null }>;
  /** Every way the build breaks the first load's rules; empty when it holds. */
  readonly failures: readonly string[];
}

/** What the first load must not carry: each loads with its language, or with speech on Start. */
const NOT_IN_THE_FIRST_LOAD: ReadonlyArray<readonly [what: string, source: RegExp]> = [
  ['another language than English', /i18n\/languages\/(?!en-US\.)/],
  ['the speech words', /speech\/speakable-words\./],
  ['the pronunciation lexicon', /speech\/pronunciation-lexicon\./],
  ['the sentence cutter', /conversation\/sentences\./],
  ['a speech engine', /speech\/(?:browser|azure)-engine\./],
  ['the speech SDK', /cognitiveservices/i],
];

/** The manifest key of a language's own chunk. */
export const languageKey = (locale: Locale) => `src/i18n/languages/${locale}.ts`;

/** Measures the build in `outDir` (which `vite build` wrote with its manifest and hidden source maps). */
export function measureFirstLoad(outDir: string): FirstLoad {
  const manifestPath = join(outDir, '.vite', 'manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`no web build in ${outDir}: run npm run build first`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, ManifestChunk>;
  const sizeOf = (file: string) => {
    const bytes = readFileSync(join(outDir, file));
    return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  };

  // The entry and its static imports, transitively: what the browser loads before anything runs.
  const initial = new Set<string>();
  const visit = (key: string) => {
    if (initial.has(key)) return;
    initial.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);

  const loadOf = (key: string): Load =>
    initial.has(key) ? 'initial' : key.startsWith('src/i18n/languages/') ? 'language' : 'lazy';
  const chunks = Object.entries(manifest)
    .filter(([, chunk]) => chunk.file.endsWith('.js'))
    .map(([key, chunk]): Chunk => ({ key, file: chunk.file, load: loadOf(key), ...sizeOf(chunk.file) }))
    .sort((a, b) => Number(b.load === 'initial') - Number(a.load === 'initial') || b.gzip - a.gzip);
  const initialChunks = chunks.filter((chunk) => chunk.load === 'initial');
  const cssFiles = new Set(initialChunks.flatMap((chunk) => manifest[chunk.key]?.css ?? []));
  const css = [...cssFiles].map((file): Chunk => ({ key: file, file, load: 'initial', ...sizeOf(file) }));

  const failures: string[] = [];
  const initialGzip = initialChunks.reduce((sum, chunk) => sum + chunk.gzip, 0);

  // English rides in the entry (it is the fallback); every other language is a lazy chunk of its own.
  const languages = LOCALES.filter((locale) => locale !== 'en-US').map((locale) => {
    const chunk = manifest[languageKey(locale)];
    if (!chunk?.isDynamicEntry || initial.has(languageKey(locale))) {
      failures.push(`${locale} is not a lazy chunk of its own`);
    }
    return { locale, gzip: chunk ? sizeOf(chunk.file).gzip : 0 };
  });
  const heaviestLanguage = languages.reduce((most, language) =>
    language.gzip > most.gzip ? language : most,
  );
  const heaviest = { locale: heaviestLanguage.locale, firstLoadGzip: initialGzip + heaviestLanguage.gzip };
  if (heaviest.firstLoadGzip > FIRST_LOAD_BUDGET_BYTES) {
    failures.push(
      `the first load (${heaviest.locale}) is ${kb(heaviest.firstLoadGzip)}, over its ${kb(FIRST_LOAD_BUDGET_BYTES)} budget`,
    );
  }

  // What the initial chunks were made of, from their source maps.
  const sources = initialChunks.flatMap((chunk) => {
    const map = join(outDir, `${chunk.file}.map`);
    if (!existsSync(map)) {
      failures.push(`${chunk.file} has no source map to check`);
      return [];
    }
    return (JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] }).sources;
  });
  const contents = NOT_IN_THE_FIRST_LOAD.map(([what, source]) => {
    const found = sources.find((path) => source.test(path)) ?? null;
    if (found !== null) failures.push(`${what} is in the first load (${found})`);
    return { what, found };
  });
  const sdkLazy = chunks.some(
    (chunk) => chunk.load !== 'initial' && /cognitiveservices/i.test(`${chunk.key} ${chunk.file}`),
  );
  if (!sdkLazy) failures.push('the speech SDK is not a lazy chunk');

  return { chunks, css, initialGzip, heaviest, contents, failures };
}

/** Bytes as KB with one decimal, as the bench and docs/testing.md write them. */
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
