/**
 * Grounded facts (docs/behaviour.md §17.6): for the Bedrock and OpenAI-compatible tutors, the one or two
 * offline topics that best match the learner's message, in the conversation's language, become reference
 * notes in the system prompt: the fact that answers what was asked, then the lesson at the learner's
 * level. The lessons are read by the offline tutor's own reader (offline/knowledge.ts), one language on its
 * first use, kept for the life of the function; matching and fact choice are the offline tutor's.
 */
import type { Locale } from '../contract/languages';
import type { Level } from '../contract/teaching';
import { errorFields, log } from '../lib/log';
import { chooseFact, factText } from './offline/answers';
import { rankedMatches, type CompiledLocale } from './offline/compiled-locale';
import { lessonsFromAsync, type ReadLessonFileAsync } from './offline/knowledge';
import type { ReferenceNote } from './system-prompt';
import { isInitMessage } from './system-prompt';

/** At most this many topics reach the model: enough to ground a reply, little enough to stay focused. */
export const MAX_NOTES = 2;
/** A second topic must cover at least this share of what the best one covers to be worth a note. */
const SECOND_NOTE_SHARE = 0.5;

export type { ReadLessonFileAsync as ReadLessonFile } from './offline/knowledge';

/** The reference notes for a learner's message in a language at a level, best match first. */
export type ReferenceNotesOf = (message: string, locale: Locale, level: Level) => Promise<ReferenceNote[]>;

/**
 * Grounding over the lesson files `read` returns. Each language is read on its first use and kept;
 * there are no notes for the opening message, for a message naming no topic, or when the lessons
 * cannot be read or are broken (logged once per language: a reply without notes is still a good reply).
 */
export function createGrounding(read?: ReadLessonFileAsync): ReferenceNotesOf {
  const lessonsOf = lessonsFromAsync(read);
  const languages = new Map<Locale, Promise<CompiledLocale | undefined>>();
  const lessonsFor = (locale: Locale): Promise<CompiledLocale | undefined> => {
    let loading = languages.get(locale);
    if (!loading) {
      loading = lessonsOf(locale).catch((error: unknown) => {
        log.error('lessons for grounding unreadable; replying without reference notes', {
          locale,
          ...errorFields(error),
        });
        return undefined;
      });
      languages.set(locale, loading);
    }
    return loading;
  };

  return async (message, locale, level) => {
    if (isInitMessage(message)) return [];
    const language = await lessonsFor(locale);
    return language ? bestNotes(message, language, level) : [];
  };
}

/** Grounding over the lesson files beside the code (offline/knowledge-files.ts). */
export const referenceNotes: ReferenceNotesOf = createGrounding();

/**
 * The one or two topics whose own keywords cover the message best (§15.4's ranking; no broad words, no
 * English fallback), each as the fact that answers the message (if one does) and the level's lesson.
 */
function bestNotes(message: string, language: CompiledLocale, level: Level): ReferenceNote[] {
  const ranked = rankedMatches(message, language, language.keywords);
  const best = ranked[0];
  // Stryker disable next-line ConditionalExpression: with nothing ranked there is nothing to filter either.
  if (!best) return [];
  return ranked
    .slice(0, MAX_NOTES)
    .filter((candidate) => candidate === best || candidate.score >= best.score * SECOND_NOTE_SHARE)
    .map(({ topic }) => {
      const { fact } = chooseFact(message, topic, language);
      const lesson = topic.levels[level];
      const parts = [...(fact ? [factText(fact, level)] : []), lesson.explanation, lesson.more];
      return { topic: topic.text.name, text: parts.join(language.joiner) };
    });
}
