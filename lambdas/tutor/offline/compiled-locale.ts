/**
 * One language's lessons prepared for answering: topics in the index's order with their facts and their
 * three levels' lessons, and every phrase list compiled for the matcher once, when the language is first
 * used. Shared by the reply rules (offline-tutor.ts), the direct answers (answers.ts), the checks for
 * understanding (checks.ts), the quiz (quiz.ts) and grounding for the model tutors (../grounding.ts).
 */
import { LEVELS, type Level } from '../../contract/teaching';
import type { JudgingUnits, OptionUnits } from './answer-reading';
import { phraseUnits } from './message-units';
import {
  SHAPES,
  type CheckText,
  type LocaleKnowledge,
  type LocalizedTopic,
  type Shape,
  type TopicIndex,
} from './knowledge-schema';
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

/** One level's check for understanding, with what reading an answer to it needs (docs/behaviour.md §17.2). */
export interface CompiledCheck {
  readonly topicId: string;
  readonly level: Level;
  readonly text: CheckText;
  /** The check question's accepted answers and known mistakes, as units for reading an answer. */
  readonly options: OptionUnits;
  /** Every hint of the check: the general one and each mistake's. */
  readonly hints: readonly string[];
}

/** One level's lesson (docs/behaviour.md §17.1). */
export interface CompiledLevel {
  readonly level: Level;
  readonly explanation: string;
  readonly more: string;
  readonly check: CompiledCheck;
}

/** A direct answer to one shape of question (docs/behaviour.md §15.11). */
export interface CompiledFact {
  readonly shape: Shape;
  /** Words that must be in the question too, as units; empty for a fact that needs none. */
  readonly keywords: readonly (readonly string[])[];
  /** The fact's text for each level: an adult hears the teen text where no adult text is written. */
  readonly text: Readonly<Record<Level, string>>;
}

export interface CompiledTopic {
  readonly id: string;
  readonly order: number;
  readonly priority: number;
  readonly next: string;
  readonly area: TopicIndex['topics'][number]['area'];
  readonly imagePrompt?: string;
  readonly text: LocalizedTopic;
  readonly levels: Readonly<Record<Level, CompiledLevel>>;
  readonly facts: readonly CompiledFact[];
}

export interface CompiledLocale {
  readonly data: LocaleKnowledge;
  readonly matching: Matching;
  /** "yes" and "more" are short: with clitics allowed, Hebrew "כן" (yes) would hide in "לכן" (therefore). */
  readonly phraseMatching: Matching;
  /** Question phrases take the language's clitics ("وكم", "וכמה") but no endings. */
  readonly shapeMatching: Matching;
  /** Sentences are joined with a space, except in Chinese and Japanese. */
  readonly joiner: string;
  readonly topics: readonly CompiledTopic[];
  readonly byId: ReadonlyMap<string, CompiledTopic>;
  /** Every level's check, by the question that asks it (several levels may share one question). */
  readonly checksByQuestion: ReadonlyMap<string, readonly CompiledCheck[]>;
  /** Each topic's own keywords, its broad ones, and (used for English) its keywords of 4+ letters. */
  readonly keywords: PatternIndex;
  readonly broadKeywords: PatternIndex;
  readonly fallbackKeywords: PatternIndex;
  readonly moreWords: PatternIndex;
  readonly helloWords: PatternIndex;
  readonly noWords: PatternIndex;
  readonly quizWords: PatternIndex;
  readonly dontKnowWords: PatternIndex;
  /** The phrases that ask each shape of question, as units (§15.11). */
  readonly shapes: ReadonlyMap<Shape, readonly (readonly string[])[]>;
  readonly sadWords: readonly (readonly string[])[];
  readonly unsafeWords: readonly (readonly string[])[];
  readonly homeWords: readonly (readonly string[])[];
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

export function compileLocale(index: TopicIndex, data: LocaleKnowledge): CompiledLocale {
  const matching: Matching = data.matching;
  const phraseMatching: Matching = { ...matching, prefixes: [], suffixes: [] };
  const shapeMatching: Matching = { ...matching, suffixes: [] };
  const compile = (phrases: readonly string[], how: Matching) =>
    phrases.map((phrase) => compilePattern(phrase, how));
  const phraseIndex = (phrases: readonly string[]) =>
    indexPatterns([compile(phrases, phraseMatching)], phraseMatching);
  const units = (phrases: readonly string[], how: Matching = matching) =>
    phrases.map((phrase) => phraseUnits(phrase, how));
  const keywordUnits = new Map(
    index.topics.map((entry) => [entry.id, units(data.topics[entry.id]?.keywords ?? [])]),
  );
  // Only Chinese and Japanese read one-character options against the other topics' words (§17.2).
  const everyKeyword = matching.mode === 'characters' ? [...keywordUnits.values()].flat() : [];
  const topics = index.topics.map((entry, order): CompiledTopic => {
    const text = data.topics[entry.id];
    if (!text) throw new Error(`${data.locale}: missing topic ${entry.id}`);
    const neutral = keywordUnits.get(entry.id) ?? [];
    const level = (name: Level): CompiledLevel => {
      const lesson = text.levels[name];
      const { check } = lesson;
      return {
        level: name,
        explanation: lesson.explanation,
        more: lesson.more,
        check: {
          topicId: entry.id,
          level: name,
          text: check,
          // Answers are matched like keywords, with the language's prefixes and endings (§17.2).
          options: {
            answers: units(check.answers),
            mistakes: check.mistakes.map((mistake) => units(mistake.says)),
            neutral,
            foreign: everyKeyword,
          },
          hints: [check.hint, ...check.mistakes.map((mistake) => mistake.hint)],
        },
      };
    };
    return {
      id: entry.id,
      order,
      priority: entry.priority,
      next: entry.next,
      area: entry.area,
      ...(entry.imagePrompt ? { imagePrompt: entry.imagePrompt } : {}),
      text,
      levels: { child: level('child'), teen: level('teen'), adult: level('adult') },
      facts: text.facts.map((fact) => ({
        shape: fact.shape,
        keywords: units(fact.keywords ?? []),
        text: { child: fact.child, teen: fact.teen, adult: fact.adult ?? fact.teen },
      })),
    };
  });
  const checksByQuestion = new Map<string, CompiledCheck[]>();
  for (const topic of topics)
    for (const name of LEVELS) {
      const { check } = topic.levels[name];
      const question = check.text.question;
      checksByQuestion.set(question, [...(checksByQuestion.get(question) ?? []), check]);
    }
  const { judging } = data;
  const keywords = topics.map((topic) => compile(topic.text.keywords, matching));
  return {
    data,
    matching,
    phraseMatching,
    shapeMatching,
    joiner: matching.mode === 'characters' ? '' : ' ',
    topics,
    byId: new Map(topics.map((topic) => [topic.id, topic])),
    checksByQuestion,
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
    shapes: new Map(SHAPES.map((shape) => [shape, units(data.shapes[shape], shapeMatching)])),
    sadWords: units(data.sadWords, phraseMatching),
    unsafeWords: units(data.unsafeWords, phraseMatching),
    homeWords: units(data.homeWords, phraseMatching),
    judging: {
      negationBefore: units(judging.negationBefore),
      negationAfter: units(judging.negationAfter),
      negationFinal: units(judging.negationFinal),
      contrast: units(judging.contrast),
      asideBefore: units(judging.asideBefore),
      asideAfter: units(judging.asideAfter),
      both: units(judging.both),
      dontKnow: units(data.dontKnowWords),
      nobodyKnows: units(judging.nobodyKnows),
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

export interface TopicMatch {
  readonly topic: CompiledTopic;
  /** Letters of the message its keywords cover (§15.4). */
  readonly score: number;
}

/**
 * The topics whose patterns cover the message, best first (§15.4's ranking: letters covered, then
 * priority, then the lessons' order), each with how much it covers. Grounding for the model tutors reads
 * the same ranking (lambdas/tutor/grounding.ts).
 */
export function rankedMatches(message: string, language: CompiledLocale, index: PatternIndex): TopicMatch[] {
  const coverage = coverAll(prepareMessage(message, language.matching), index, language.matching);
  return [...coverage]
    .flatMap(([order, covered]) => {
      const topic = language.topics[order];
      return topic ? [{ topic, priority: topic.priority, order, ...covered }] : [];
    })
    .sort(compareCandidates)
    .map(({ topic, score }) => ({ topic, score }));
}

/** The topic whose patterns cover the message best, if any matched, with how much they cover. */
export function bestMatch(
  message: string,
  language: CompiledLocale,
  index: PatternIndex,
): TopicMatch | undefined {
  return rankedMatches(message, language, index)[0];
}

/** The topic whose patterns cover the message best, if any matched. */
export function bestTopic(
  message: string,
  language: CompiledLocale,
  index: PatternIndex,
): CompiledTopic | undefined {
  return bestMatch(message, language, index)?.topic;
}

/** The lesson for the learner's level (docs/behaviour.md §17.1). */
export function lessonText(topic: CompiledTopic, level: Level): string {
  return topic.levels[level].explanation;
}

export type Stage = 'explanation' | 'more';

/**
 * Which topic one of Astro's turns taught and how far, read from the texts it holds (a level's "more"
 * text; a level's explanation or one of the topic's facts); undefined for a turn holding none.
 */
export function lessonIn(
  content: string,
  language: CompiledLocale,
): { readonly topic: CompiledTopic; readonly stage: Stage } | undefined {
  for (const topic of language.topics) {
    if (LEVELS.some((level) => content.includes(topic.levels[level].more))) return { topic, stage: 'more' };
    if (
      LEVELS.some((level) => content.includes(topic.levels[level].explanation)) ||
      topic.facts.some((fact) => LEVELS.some((level) => content.includes(fact.text[level])))
    )
      return { topic, stage: 'explanation' };
  }
  return undefined;
}

/**
 * The check whose question ends `content` (one of Astro's turns), if one does. Where several levels ask
 * the same question, the one of `level` (the learner's) is taken, else the simplest.
 */
export function questionAtEnd(
  content: string,
  language: CompiledLocale,
  level?: Level,
): CompiledCheck | undefined {
  const trimmed = content.trimEnd();
  for (const [question, checks] of language.checksByQuestion)
    if (trimmed.endsWith(question)) return checks.find((check) => check.level === level) ?? checks[0];
  return undefined;
}

/** The topic a check belongs to. */
export function topicOfCheck(check: CompiledCheck, language: CompiledLocale): CompiledTopic {
  const topic = language.byId.get(check.topicId);
  // Stryker disable next-line all: every check is compiled from one of the language's topics.
  if (!topic) throw new Error(`${language.data.locale}: no topic ${check.topicId}`);
  return topic;
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
  return parts.filter((part) => part.length > 0).join(language.joiner);
}
