import type { Locale } from '#contract/languages';
import type { Level } from '#contract/teaching';
import { referenceNotes } from '#lambdas/tutor/grounding';
import { chooseFact, factText } from '#lambdas/tutor/offline/answers';
import { lessons } from '#lambdas/tutor/offline/knowledge';

/**
 * The reference note line a lesson becomes in the system prompt for `message` (docs/behaviour.md §17.6):
 * the fact that answers it, then the level's lesson and its "more", read from the lesson file itself so
 * the tests follow the lessons as they are rewritten.
 */
export function lessonNote(locale: Locale, topicId: string, message: string, level: Level = 'teen'): string {
  const language = lessons.language(locale);
  const topic = language.byId.get(topicId);
  if (!topic) throw new Error(`${locale}.json has no topic ${topicId}`);
  const { fact } = chooseFact(message, topic, language);
  const lesson = topic.levels[level];
  const parts = [...(fact ? [factText(fact, level)] : []), lesson.explanation, lesson.more];
  return `- ${topic.text.name}: ${parts.join(language.joiner)}`;
}

/**
 * Reads the lessons grounding uses for these languages before a test starts: a language is read once,
 * on its first use, and a test whose model deadline is a few hundred milliseconds measures the model,
 * not that first read on a busy machine.
 */
export async function readLessonsFirst(...locales: readonly Locale[]): Promise<void> {
  for (const locale of locales) await referenceNotes('moon', locale, 'teen');
}
