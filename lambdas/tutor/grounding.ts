/**
 * Grounded facts (docs/behaviour.md §17.6): for the Bedrock and OpenAI-compatible tutors, the one or two
 * offline lessons that best match the learner's message, in the conversation's language, become
 * reference notes in the system prompt. Only that language's lesson file is read, on its first use, and
 * kept for the life of the function; matching is the offline tutor's (offline/matcher.ts).
 */
import { z } from 'zod';
import { LOCALES, type Locale } from '../contract/languages';
import { errorFields, log } from '../lib/log';
import { readKnowledgeFile } from './offline/knowledge-files';
import {
  compareCandidates,
  compilePattern,
  coverAll,
  indexPatterns,
  prepareMessage,
  type Matching,
  type PatternIndex,
} from './offline/matcher';
import type { ReferenceNote } from './system-prompt';
import { isInitMessage } from './system-prompt';

/** At most this many lessons reach the model: enough to ground a reply, little enough to stay focused. */
export const MAX_NOTES = 2;
/** A second lesson must cover at least this share of what the best one covers to be worth a note. */
const SECOND_NOTE_SHARE = 0.5;

/**
 * The parts of the lesson files grounding reads. Deliberately loose (other fields pass): the offline
 * tutor's own schema (offline/knowledge-schema.ts) is the strict check of these files.
 */
const topicIndexSchema = z.object({
  topics: z.array(z.object({ id: z.string().min(1), priority: z.number() })),
});
const lessonsSchema = z.object({
  locale: z.enum(LOCALES),
  matching: z.object({
    mode: z.enum(['words', 'characters']),
    prefixes: z.array(z.string()),
    suffixes: z.array(z.string()),
  }),
  topics: z.record(
    z.string(),
    z.object({
      name: z.string().trim().min(1),
      keywords: z.array(z.string().trim().min(1)),
      explanation: z.string().trim().min(1),
      more: z.string().trim().min(1),
    }),
  ),
});

interface GroundingTopic {
  readonly priority: number;
  readonly keywords: readonly string[];
  readonly note: ReferenceNote;
}

interface GroundingLessons {
  readonly matching: Matching;
  /** In the lesson files' order, which breaks ties as it does for the offline tutor (§15.4). */
  readonly topics: readonly GroundingTopic[];
  readonly keywords: PatternIndex;
}

/** Reads one lesson file's JSON: `topics` or a locale (injected in tests). */
export type ReadLessonFile = (name: 'topics' | Locale) => Promise<unknown>;

/** The reference notes for a learner's message in a language, best match first. */
export type ReferenceNotesOf = (message: string, locale: Locale) => Promise<ReferenceNote[]>;

/**
 * Grounding over the lesson files `read` returns. Each language is read on its first use and kept;
 * there are no notes for the opening message, for a message naming no topic, or when the lessons
 * cannot be read (logged once: a reply without notes is still a good reply).
 */
export function createGrounding(read: ReadLessonFile = readKnowledgeFile): ReferenceNotesOf {
  let topicIndex: Promise<z.output<typeof topicIndexSchema>> | undefined;
  const lessons = new Map<Locale, Promise<GroundingLessons | undefined>>();

  const lessonsFor = (locale: Locale): Promise<GroundingLessons | undefined> => {
    let loading = lessons.get(locale);
    if (!loading) {
      topicIndex ??= read('topics').then((raw) => topicIndexSchema.parse(raw));
      loading = loadLessons(locale, topicIndex, read(locale)).catch((error: unknown) => {
        log.error('lessons for grounding unreadable; replying without reference notes', {
          locale,
          ...errorFields(error),
        });
        return undefined;
      });
      lessons.set(locale, loading);
    }
    return loading;
  };

  return async (message, locale) => {
    if (isInitMessage(message)) return [];
    const language = await lessonsFor(locale);
    return language ? bestNotes(message, language) : [];
  };
}

/** Grounding over the lesson files beside the code (offline/knowledge-files.ts). */
export const referenceNotes: ReferenceNotesOf = createGrounding();

/** The one or two lessons whose keywords cover the message best (§15.4's ranking). */
function bestNotes(message: string, language: GroundingLessons): ReferenceNote[] {
  const coverage = coverAll(prepareMessage(message, language.matching), language.keywords, language.matching);
  const ranked = [...coverage]
    .flatMap(([order, covered]) => {
      const topic = language.topics[order];
      return topic ? [{ ...covered, priority: topic.priority, order, note: topic.note }] : [];
    })
    .sort(compareCandidates);
  const best = ranked[0];
  // Stryker disable next-line ConditionalExpression: with nothing ranked there is nothing to filter either.
  if (!best) return [];
  return ranked
    .slice(0, MAX_NOTES)
    .filter((candidate) => candidate === best || candidate.score >= best.score * SECOND_NOTE_SHARE)
    .map((candidate) => candidate.note);
}

async function loadLessons(
  locale: Locale,
  topicIndex: Promise<z.output<typeof topicIndexSchema>>,
  file: Promise<unknown>,
): Promise<GroundingLessons> {
  const [index, raw] = await Promise.all([topicIndex, file]);
  const data = lessonsSchema.parse(raw);
  if (data.locale !== locale) throw new Error(`${locale}.json: locale is ${data.locale}`);
  const matching: Matching = data.matching;
  // Sentences are joined with a space, except in Chinese and Japanese (§15.7).
  const joiner = matching.mode === 'characters' ? '' : ' ';
  const topics = index.topics.flatMap((entry): GroundingTopic[] => {
    const text = data.topics[entry.id];
    return text
      ? [
          {
            priority: entry.priority,
            keywords: text.keywords,
            note: { topic: text.name, text: [text.explanation, text.more].join(joiner) },
          },
        ]
      : [];
  });
  return {
    matching,
    topics,
    keywords: indexPatterns(
      topics.map((topic) => topic.keywords.map((keyword) => compilePattern(keyword, matching))),
      matching,
    ),
  };
}
