/**
 * The offline tutor's knowledge: every lesson file, read when the offline tutor is first built (it is
 * loaded by dynamic import only when `ASTRO_MODEL=offline`, lambdas/tutor/create-tutor.ts), and
 * validated once (docs/behaviour.md §15.9).
 */
import { LOCALES, type Locale } from '../../contract/languages';
import { readKnowledgeFileSync } from './knowledge-files';
import { parseKnowledge } from './knowledge-schema';

export const RAW_TOPIC_INDEX: unknown = readKnowledgeFileSync('topics');

export const RAW_LOCALE_FILES: Readonly<Record<Locale, unknown>> = Object.fromEntries(
  LOCALES.map((locale) => [locale, readKnowledgeFileSync(locale)]),
) as Record<Locale, unknown>;

export type Knowledge = ReturnType<typeof parseKnowledge>;

let loaded: Knowledge | undefined;

/** The validated knowledge base; throws (naming the file and field) if a data file is broken. */
export function loadKnowledge(): Knowledge {
  loaded ??= parseKnowledge(RAW_TOPIC_INDEX, RAW_LOCALE_FILES);
  return loaded;
}
