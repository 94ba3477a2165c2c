/**
 * One language's lessons prepared for answering: topics in the index's order with their texts, and every
 * phrase list compiled for the matcher once per cold start. Shared by the reply rules (offline-tutor.ts),
 * the checks for understanding (checks.ts) and the quiz (quiz.ts).
 */
import type { Level } from '../../contract/teaching';
import { phraseUnits, type JudgingUnits, type OptionUnits } from './answer-reading';
import type { Knowledge } from './knowledge';
import type { LocaleKnowledge, LocalizedTopic } from './knowledge-schema';
import {
  compareCandidates,
  compilePattern,
  coverAll,
  indexPatterns,
  prepareMessage,
  type Matching,
  type PatternIndex,
} from './matcher';

/** English keywords shorter than this are not tried in another language (docs/behaviour.md §15.5). */
const FALLBACK_MIN_LETTERS = 4;

export interface CompiledTopic {
  readonly id: string;
  readonly order: number;
  readonly priority: number;
  readonly next: string;
  readonly imagePrompt?: string;
  readonly text: LocalizedTopic;
  /** The check question's accepted answers (docs/behaviour.md §17.2). */
  readonly answers: PatternIndex;
  /** The check question's accepted answers and known mistakes, as units for reading an answer. */
  readonly options: OptionUnits;
  /** Every hint of the check: the general one and each mistake's. */
  readonly hints: readonly string[];
}

export interface CompiledLocale {
  readonly data: LocaleKnowledge;
  readonly matching: Matching;
  /** "yes" and "more" are short: with clitics allowed, Hebrew "כן" (yes) would hide in "לכן" (therefore). */
  readonly phraseMatching: Matching;
  /** Sentences are joined with a space, except in Chinese and Japanese. */
  readonly joiner: string;
  readonly topics: readonly CompiledTopic[];
  readonly byId: ReadonlyMap<string, CompiledTopic>;
  /** Each topic's own keywords, its broad ones, and (used for English) its keywords of 4+ letters. */
  readonly keywords: PatternIndex;
  readonly broadKeywords: PatternIndex;
  readonly fallbackKeywords: PatternIndex;
  readonly moreWords: PatternIndex;
  readonly helloWords: PatternIndex;
  readonly noWords: PatternIndex;
  readonly quizWords: PatternIndex;
  readonly dontKnowWords: PatternIndex;
  /** How the language's learners negate, contrast, set aside and name both (§17.2). */
  readonly judging: JudgingUnits;
  /** Asking for help with the open question, every kind together. */
  readonly help: readonly (readonly string[])[];
  /** Asking what a word means ("what does … mean?"): about an option's word when it names one. */
  readonly helpMeaning: readonly (readonly string[])[];
  readonly questionWords: readonly (readonly string[])[];
  readonly askWords: readonly (readonly string[])[];
  /** Single words that may open a message before its question word ("oh", "wait", "and"). */
  readonly openers: ReadonlySet<string>;
}

export function compileLocale(knowledge: Knowledge, data: LocaleKnowledge): CompiledLocale {
  const matching: Matching = data.matching;
  const phraseMatching: Matching = { ...matching, prefixes: [], suffixes: [] };
  const compile = (phrases: readonly string[], how: Matching) =>
    phrases.map((phrase) => compilePattern(phrase, how));
  const phraseIndex = (phrases: readonly string[]) =>
    indexPatterns([compile(phrases, phraseMatching)], phraseMatching);
  const keywordUnits = new Map(
    knowledge.index.topics.map((entry) => [
      entry.id,
      (data.topics[entry.id]?.keywords ?? []).map((keyword) => phraseUnits(keyword, matching)),
    ]),
  );
  const topics = knowledge.index.topics.map((entry, order): CompiledTopic => {
    const text = data.topics[entry.id];
    if (!text) throw new Error(`${data.locale}: missing topic ${entry.id}`);
    return {
      id: entry.id,
      order,
      priority: entry.priority,
      next: entry.next,
      ...(entry.imagePrompt ? { imagePrompt: entry.imagePrompt } : {}),
      text,
      // Answers are matched like keywords, with the language's prefixes and endings (§17.2).
      answers: indexPatterns([compile(text.check.answers, matching)], matching),
      options: {
        answers: text.check.answers.map((answer) => phraseUnits(answer, matching)),
        mistakes: text.check.mistakes.map((mistake) =>
          mistake.says.map((says) => phraseUnits(says, matching)),
        ),
        neutral: keywordUnits.get(entry.id) ?? [],
        foreign: [...keywordUnits].flatMap(([id, units]) => (id === entry.id ? [] : units)),
      },
      hints: [text.check.hint, ...text.check.mistakes.map((mistake) => mistake.hint)],
    };
  });
  const units = (phrases: readonly string[]) => phrases.map((phrase) => phraseUnits(phrase, matching));
  const { judging } = data;
  const keywords = topics.map((topic) => compile(topic.text.keywords, matching));
  return {
    data,
    matching,
    phraseMatching,
    joiner: matching.mode === 'characters' ? '' : ' ',
    topics,
    byId: new Map(topics.map((topic) => [topic.id, topic])),
    keywords: indexPatterns(keywords, matching),
    broadKeywords: indexPatterns(
      topics.map((topic) => compile(topic.text.broadKeywords, matching)),
      matching,
    ),
    fallbackKeywords: indexPatterns(
      keywords.map((patterns) =>
        patterns.filter((pattern) => pattern.words.join('').length >= FALLBACK_MIN_LETTERS),
      ),
      matching,
    ),
    moreWords: phraseIndex(data.moreWords),
    helloWords: phraseIndex(data.helloWords),
    noWords: phraseIndex(data.noWords),
    quizWords: phraseIndex(data.quizWords),
    dontKnowWords: phraseIndex(data.dontKnowWords),
    judging: {
      negationBefore: units(judging.negationBefore),
      negationAfter: units(judging.negationAfter),
      negationFinal: units(judging.negationFinal),
      contrast: units(judging.contrast),
      asideBefore: units(judging.asideBefore),
      asideAfter: units(judging.asideAfter),
      both: units(judging.both),
      dontKnow: units(data.dontKnowWords),
    },
    help: units(Object.values(judging.help).flat()),
    helpMeaning: units(judging.help.meaning),
    questionWords: units(judging.questionWords),
    askWords: units(judging.askWords),
    openers: new Set(
      units([...judging.openers, ...judging.contrast]).flatMap((words) => (words.length === 1 ? words : [])),
    ),
  };
}

/** The topic whose patterns cover the message best, if any matched. */
export function bestTopic(
  message: string,
  language: CompiledLocale,
  index: PatternIndex,
): CompiledTopic | undefined {
  const coverage = coverAll(prepareMessage(message, language.matching), index, language.matching);
  return [...coverage]
    .flatMap(([order, covered]) => {
      const topic = language.topics[order];
      return topic ? [{ topic, priority: topic.priority, order, ...covered }] : [];
    })
    .sort(compareCandidates)[0]?.topic;
}

/** The lesson for the learner's level: a Young explorer hears the shorter one (docs/behaviour.md §17.1). */
export function lessonText(topic: CompiledTopic, level: Level): string {
  return level === 'child' ? topic.text.childExplanation : topic.text.explanation;
}

export type Stage = 'explanation' | 'more';

/**
 * Which topic one of Astro's turns taught and how far, read from the lesson texts it holds (the teen or
 * the child explanation, or the "more" text); undefined for a turn holding none.
 */
export function lessonIn(
  content: string,
  language: CompiledLocale,
): { readonly topic: CompiledTopic; readonly stage: Stage } | undefined {
  for (const topic of language.topics) {
    if (content.includes(topic.text.more)) return { topic, stage: 'more' };
    if (content.includes(topic.text.explanation) || content.includes(topic.text.childExplanation))
      return { topic, stage: 'explanation' };
  }
  return undefined;
}

/** The topic whose check question ends `content` (one of Astro's turns), if one does. */
export function questionAtEnd(content: string, language: CompiledLocale): CompiledTopic | undefined {
  const trimmed = content.trimEnd();
  return language.topics.find((topic) => trimmed.endsWith(topic.text.check.question));
}

export function listOf(names: readonly string[], list: LocaleKnowledge['list']): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(list.separator)}${list.last}${names[names.length - 1]}`;
}

/** Fills `{name}` holes; split/join rather than replace() so `$` in data is never a replacement pattern. */
export function fill(template: string, values: Readonly<Record<string, string>>): string {
  return Object.entries(values).reduce(
    (text, [name, value]) => text.split(`{${name}}`).join(value),
    template,
  );
}

/** Sentences of one reply, joined the language's way. */
export function joinSentences(language: CompiledLocale, ...parts: readonly string[]): string {
  return parts.join(language.joiner);
}
