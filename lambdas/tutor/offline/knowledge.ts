/**
 * The one reader of the lesson files (docs/behaviour.md §15.9): the topic index and each language's
 * lessons, read, validated and compiled once, on the language's first use. The offline tutor reads them
 * synchronously (lambdas/tutor/offline/offline-tutor.ts); grounding for the model tutors reads the same
 * files without blocking (lambdas/tutor/grounding.ts). Why per language: docs/design-notes.md.
 */
import { LOCALES, type Locale } from '../../contract/languages';
import { compileLocale, type CompiledLocale } from './compiled-locale';
import { readKnowledgeFile, readKnowledgeFileSync } from './knowledge-files';
import { parseLanguage, parseTopicIndex, type LocaleKnowledge, type TopicIndex } from './knowledge-schema';

/** Reads one lesson file's JSON: `topics` or a locale. */
export type ReadLessonFile = (name: 'topics' | Locale) => unknown;
export type ReadLessonFileAsync = (name: 'topics' | Locale) => Promise<unknown>;

/** One language's lessons, validated and compiled. */
export function compileLanguage(index: TopicIndex, raw: unknown, locale: Locale): CompiledLocale {
  return compileLocale(index, parseLanguage(index, raw, locale));
}

/** Lessons read synchronously and kept: each language compiled on its first use, then kept. */
export interface Lessons {
  readonly index: () => TopicIndex;
  readonly language: (locale: Locale) => CompiledLocale;
}

export function lessonsFrom(read: ReadLessonFile = readKnowledgeFileSync): Lessons {
  let index: TopicIndex | undefined;
  const languages = new Map<Locale, CompiledLocale>();
  const topicIndex = () => (index ??= parseTopicIndex(read('topics')));
  return {
    index: topicIndex,
    language(locale) {
      let compiled = languages.get(locale);
      if (!compiled) {
        compiled = compileLanguage(topicIndex(), read(locale), locale);
        languages.set(locale, compiled);
      }
      return compiled;
    },
  };
}

/** Lessons read without blocking (grounding, §17.6): each language read on its first use, then kept. */
export function lessonsFromAsync(read: ReadLessonFileAsync = readKnowledgeFile) {
  let index: Promise<TopicIndex> | undefined;
  const languages = new Map<Locale, Promise<CompiledLocale>>();
  return (locale: Locale): Promise<CompiledLocale> => {
    let compiled = languages.get(locale);
    if (!compiled) {
      index ??= read('topics').then(parseTopicIndex);
      const topicIndex = index;
      compiled = Promise.all([topicIndex, read(locale)]).then(([parsed, raw]) =>
        compileLanguage(parsed, raw, locale),
      );
      languages.set(locale, compiled);
    }
    return compiled;
  };
}

/** The lessons beside the code, shared by everything in one function instance. */
export const lessons: Lessons = lessonsFrom();

export interface Knowledge {
  readonly index: TopicIndex;
  readonly locales: Readonly<Record<Locale, LocaleKnowledge>>;
}

/** Every language's validated lessons at once (the tests and the data tools read them all). */
export function loadKnowledge(): Knowledge {
  return {
    index: lessons.index(),
    locales: Object.fromEntries(LOCALES.map((locale) => [locale, lessons.language(locale).data])) as Record<
      Locale,
      LocaleKnowledge
    >,
  };
}
