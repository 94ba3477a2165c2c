import type { Locale } from '#contract/languages';
import { readKnowledgeFileSync } from '#lambdas/tutor/offline/knowledge-files';

interface LessonText {
  readonly name: string;
  readonly explanation: string;
  readonly more: string;
}

/**
 * The reference note line a lesson becomes in the system prompt (docs/behaviour.md §17.6), read from
 * the lesson file itself so the tests follow the lessons as they are rewritten.
 */
export function lessonNote(locale: Locale, topicId: string): string {
  const file = readKnowledgeFileSync(locale) as { topics: Record<string, LessonText> };
  const lesson = file.topics[topicId];
  if (!lesson) throw new Error(`${locale}.json has no topic ${topicId}`);
  const joiner = locale === 'ja-JP' || locale === 'zh-CN' ? '' : ' ';
  return `- ${lesson.name}: ${lesson.explanation}${joiner}${lesson.more}`;
}
