import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '#contract/languages';
import { FIRST_LOAD_BUDGET_BYTES, measureFirstLoad } from '../bench/support/first-load';

/**
 * The build the browser tests run against (`npm run build`, dist/web) keeps the first load's rules
 * (docs/behaviour.md §2.24): within its budget, one language, no speech. `npm run bench` prints the same
 * figures (test/bench/web-bundle.bench.ts); this fails `npm run check` when they break.
 */
const load = measureFirstLoad(join(process.cwd(), 'dist', 'web'));

describe('the first load of the web build', () => {
  it('is within its budget for the heaviest language, and breaks none of its rules', () => {
    expect(load.failures).toEqual([]);
    expect(load.heaviest.firstLoadGzip).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
  });

  it('carries English only: every other language is a chunk of its own, loaded with the language', () => {
    const languages = load.chunks.filter((chunk) => chunk.load === 'language').map((chunk) => chunk.key);
    expect(languages.sort()).toEqual(
      LOCALES.filter((locale) => locale !== 'en-US')
        .map((locale) => `src/i18n/languages/${locale}.ts`)
        .sort(),
    );
    expect(load.contents.filter((content) => content.found !== null)).toEqual([]);
  });
});
