/**
 * The offline tutor: no network, deterministic (the same request always gets the same reply). It answers
 * from the knowledge files in ./knowledge, in the conversation's language:
 * - `__INIT__ …` → the greeting;
 * - a message naming a topic → its explanation and a question checking understanding (+ its image prompt);
 * - "tell me more", "yes", "continue"… → more about the last topic discussed (read back from the history),
 *   then an offer of the next topic; after that, "yes" moves on to the offered topic;
 * - "hello" with no topic → the greeting again;
 * - anything else → a friendly reply suggesting a few topics.
 * It never echoes the learner's words, so a reply is always text from the data files.
 */
import { INIT_MARKER, LOCALES, type Locale } from '../../contract/languages';
import type { ChatTurn } from '../../contract/schemas';
import type { Tutor, TutorReply, TutorRequest } from '../tutor';
import { loadKnowledge, type Knowledge } from './knowledge';
import type { LocaleKnowledge, LocalizedTopic } from './knowledge-schema';
import {
  compareCandidates,
  compilePattern,
  cover,
  prepareMessage,
  stableHash,
  type Matching,
  type Pattern,
} from './matcher';

/** How many topics a not-understood reply suggests. */
const SUGGESTION_COUNT = 3;
/** The language whose keywords are tried when none in the conversation's language matched. */
const FALLBACK_LOCALE: Locale = 'en-US';
const FALLBACK_MIN_LETTERS = 4;

interface CompiledTopic {
  readonly id: string;
  readonly order: number;
  readonly priority: number;
  readonly next: string;
  readonly imagePrompt?: string;
  readonly text: LocalizedTopic;
  readonly patterns: readonly Pattern[];
  readonly broadPatterns: readonly Pattern[];
  readonly fallbackPatterns: readonly Pattern[];
}

interface CompiledLocale {
  readonly data: LocaleKnowledge;
  readonly matching: Matching;
  /** Sentences are joined with a space, except in Chinese and Japanese. */
  readonly joiner: string;
  readonly topics: readonly CompiledTopic[];
  readonly byId: ReadonlyMap<string, CompiledTopic>;
  readonly morePatterns: readonly Pattern[];
  readonly moreMatching: Matching;
  readonly helloPatterns: readonly Pattern[];
}

type Stage = 'explanation' | 'more';

interface LastTopic {
  readonly topic: CompiledTopic;
  readonly stage: Stage;
}

export function createOfflineTutor(): Tutor {
  const engine = new OfflineEngine(loadKnowledge());
  return {
    provider: 'offline',
    async reply(request: TutorRequest, signal?: AbortSignal): Promise<TutorReply> {
      signal?.throwIfAborted();
      return engine.answer(request);
    },
  };
}

/** The matching and reply rules, kept apart from the Tutor wrapper so tests can read them plainly. */
export class OfflineEngine {
  private readonly locales: ReadonlyMap<Locale, CompiledLocale>;

  constructor(knowledge: Knowledge) {
    this.locales = new Map(
      LOCALES.map((locale) => [locale, compileLocale(knowledge, knowledge.locales[locale])] as const),
    );
  }

  answer(request: TutorRequest): TutorReply {
    const language = this.locale(request.language);
    const message = request.userMessage.trim();
    if (message.startsWith(INIT_MARKER)) return { response: language.data.greeting };

    const topic = this.topicOf(message, request.language);
    const wantsMore = mentions(message, language.morePatterns, language.moreMatching);
    const last = wantsMore ? lastTopic(request.history, language) : undefined;

    if (topic) {
      return last && last.topic.id === topic.id
        ? continuation(language, topic)
        : explanation(language, topic);
    }
    if (last) {
      const next = language.byId.get(last.topic.next);
      return last.stage === 'more' && next ? explanation(language, next) : continuation(language, last.topic);
    }
    if (mentions(message, language.helloPatterns, language.moreMatching))
      return { response: language.data.greeting };
    return notUnderstood(language, message);
  }

  /**
   * The best topic in the conversation's language; failing that, in English (learners often use English
   * space words), counting only English keywords of 4 letters or more so that short words of another
   * language ("die", "sea") are not mistaken for them.
   */
  private topicOf(message: string, locale: Locale): CompiledTopic | undefined {
    const language = this.locale(locale);
    const own = scoreTopics(message, language, (topic) => topic.patterns)[0];
    if (own) return own.topic;
    if (locale !== FALLBACK_LOCALE) {
      const english = scoreTopics(
        message,
        this.locale(FALLBACK_LOCALE),
        (topic) => topic.fallbackPatterns,
      )[0];
      if (english) return language.byId.get(english.topic.id);
    }
    return scoreTopics(message, language, (topic) => topic.broadPatterns)[0]?.topic;
  }

  private locale(locale: Locale): CompiledLocale {
    const compiled = this.locales.get(locale);
    if (!compiled) throw new Error(`No offline knowledge for ${locale}`);
    return compiled;
  }
}

function compileLocale(knowledge: Knowledge, data: LocaleKnowledge): CompiledLocale {
  const matching: Matching = data.matching;
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
      patterns: text.keywords.map((keyword) => compilePattern(keyword, matching)),
      broadPatterns: text.broadKeywords.map((keyword) => compilePattern(keyword, matching)),
      fallbackPatterns: text.keywords
        .map((keyword) => compilePattern(keyword, matching))
        .filter((pattern) => pattern.words.join('').length >= FALLBACK_MIN_LETTERS),
    };
  });
  return {
    data,
    matching,
    joiner: matching.mode === 'characters' ? '' : ' ',
    topics,
    byId: new Map(topics.map((topic) => [topic.id, topic])),
    morePatterns: data.moreWords.map((phrase) => compilePattern(phrase, matching)),
    // "yes" and "more" are short: with clitics allowed, Hebrew "כן" (yes) would hide in "לכן" (therefore).
    moreMatching: { ...matching, prefixes: [], suffixes: [] },
    helloPatterns: data.helloWords.map((phrase) => compilePattern(phrase, matching)),
  };
}

type PatternsOf = (topic: CompiledTopic) => readonly Pattern[];

/** Topics whose patterns match the message, best first. */
function scoreTopics(message: string, language: CompiledLocale, patternsOf: PatternsOf) {
  const prepared = prepareMessage(message, language.matching);
  return language.topics
    .map((topic) => ({
      topic,
      priority: topic.priority,
      order: topic.order,
      ...cover(prepared, patternsOf(topic), language.matching),
    }))
    .filter((candidate) => candidate.score > 0)
    .sort(compareCandidates);
}

/** The best topic in one language: its own keywords first, then its broad ones. */
function bestTopic(message: string, language: CompiledLocale): CompiledTopic | undefined {
  return (
    scoreTopics(message, language, (topic) => topic.patterns)[0]?.topic ??
    scoreTopics(message, language, (topic) => topic.broadPatterns)[0]?.topic
  );
}

function mentions(message: string, patterns: readonly Pattern[], matching: Matching): boolean {
  return cover(prepareMessage(message, matching), patterns, matching).score > 0;
}

/**
 * The topic last discussed: the newest assistant turn that holds one of this tutor's texts tells the
 * topic and how far it went; failing that (another provider answered), the newest learner turn naming one.
 */
function lastTopic(history: readonly ChatTurn[], language: CompiledLocale): LastTopic | undefined {
  for (let index = history.length - 1; index >= 0; index -= 1) {
    const turn = history[index];
    if (!turn) continue;
    if (turn.role === 'assistant') {
      for (const topic of language.topics) {
        if (turn.content.includes(topic.text.more)) return { topic, stage: 'more' };
        if (turn.content.includes(topic.text.explanation)) return { topic, stage: 'explanation' };
      }
    } else {
      const topic = bestTopic(turn.content, language);
      if (topic) return { topic, stage: 'explanation' };
    }
  }
  return undefined;
}

function explanation(language: CompiledLocale, topic: CompiledTopic): TutorReply {
  const response = [topic.text.explanation, topic.text.question].join(language.joiner);
  return topic.imagePrompt ? { response, imagePrompt: topic.imagePrompt } : { response };
}

function continuation(language: CompiledLocale, topic: CompiledTopic): TutorReply {
  const next = language.byId.get(topic.next);
  return {
    response: fill(language.data.continuation, { more: topic.text.more, next: next?.text.name ?? '' }),
  };
}

function notUnderstood(language: CompiledLocale, message: string): TutorReply {
  const favourites = language.topics.filter((topic) => topic.priority === 3);
  const pool = favourites.length >= SUGGESTION_COUNT ? favourites : language.topics;
  const start = stableHash(message) % pool.length;
  const names = Array.from(
    { length: Math.min(SUGGESTION_COUNT, pool.length) },
    (_, offset) => pool[(start + offset) % pool.length]?.text.name ?? '',
  );
  return { response: fill(language.data.notUnderstood, { topics: listOf(names, language.data.list) }) };
}

function listOf(names: readonly string[], list: LocaleKnowledge['list']): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(list.separator)}${list.last}${names[names.length - 1]}`;
}

/** Fills `{name}` holes; split/join rather than replace() so `$` in data is never a replacement pattern. */
function fill(template: string, values: Readonly<Record<string, string>>): string {
  return Object.entries(values).reduce(
    (text, [name, value]) => text.split(`{${name}}`).join(value),
    template,
  );
}
