/**
 * The offline tutor: no network, deterministic (the same request always gets the same reply). It answers
 * from the knowledge files in ./knowledge, in the conversation's language:
 * - `__INIT__ …` → the greeting;
 * - a message naming a topic → its explanation and a question checking understanding (+ its image prompt);
 * - "tell me more", "yes", "continue"… → more about the last topic discussed (read back from the history),
 *   then an offer of the next topic; after that, "yes" moves on to the offered topic;
 * - "hello" with no topic → the greeting again; "no" → a few other topics to explore;
 * - anything else → a friendly reply suggesting a few topics.
 * It never echoes the learner's words, so a reply is always text from the data files.
 */
import { INIT_MARKER, LOCALES, type Locale } from '../../contract/languages';
import type { ChatTurn } from '../../contract/schemas';
import { doneEvent, type Tutor, type TutorReply, type TutorRequest, type TutorStreamEvent } from '../tutor';
import { loadKnowledge, type Knowledge } from './knowledge';
import type { LocaleKnowledge, LocalizedTopic } from './knowledge-schema';
import {
  compareCandidates,
  compilePattern,
  coverAll,
  indexPatterns,
  mentions,
  prepareMessage,
  stableHash,
  type Matching,
  type PatternIndex,
} from './matcher';

/** How many words (or, in Chinese and Japanese, word-like segments) one streamed piece holds. */
const WORDS_PER_PIECE = 4;
/** How many topics a not-understood reply suggests. */
const SUGGESTION_COUNT = 3;
/** The language whose keywords are tried when none in the conversation's language matched. */
const FALLBACK_LOCALE: Locale = 'en-US';
const FALLBACK_MIN_LETTERS = 4;
/** How far back "tell me more" looks for the topic being discussed: the last few exchanges. */
const HISTORY_LOOKBACK_TURNS = 12;

interface CompiledTopic {
  readonly id: string;
  readonly order: number;
  readonly priority: number;
  readonly next: string;
  readonly imagePrompt?: string;
  readonly text: LocalizedTopic;
}

interface CompiledLocale {
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
    async *stream(request: TutorRequest, signal?: AbortSignal): AsyncGenerator<TutorStreamEvent> {
      signal?.throwIfAborted();
      const reply = engine.answer(request);
      let first = true;
      for (const text of pieces(reply.response, request.language)) {
        yield { type: 'delta', text };
        // The picture is known from the start: offered right after the first piece, so it is drawn
        // while the rest of the lesson is read.
        if (first && reply.imagePrompt !== undefined)
          yield { type: 'picture', imagePrompt: reply.imagePrompt };
        first = false;
      }
      yield doneEvent(reply);
    },
  };
}

/**
 * The lesson text in pieces of a few words, as a model would stream it. Word segmentation keeps Chinese
 * and Japanese words whole; the pieces concatenate to the text exactly.
 */
export function pieces(text: string, locale: Locale): string[] {
  const result: string[] = [];
  let piece = '';
  let words = 0;
  for (const segment of new Intl.Segmenter(locale, { granularity: 'word' }).segment(text)) {
    if (segment.isWordLike && words === WORDS_PER_PIECE) {
      result.push(piece);
      piece = '';
      words = 0;
    }
    piece += segment.segment;
    if (segment.isWordLike) words += 1;
  }
  if (piece.length > 0) result.push(piece);
  return result;
}

/** The matching and reply rules, compiled once per cold start. */
class OfflineEngine {
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
    const phrases = prepareMessage(message, language.phraseMatching);
    const wantsMore = mentions(phrases, language.moreWords, language.phraseMatching);
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
    if (mentions(phrases, language.helloWords, language.phraseMatching)) {
      return { response: language.data.greeting };
    }
    if (mentions(phrases, language.noWords, language.phraseMatching)) {
      return suggest(language, language.data.declined, message);
    }
    return suggest(language, language.data.notUnderstood, message);
  }

  /**
   * The best topic in the conversation's language; failing that, in English (learners often use English
   * space words), counting only English keywords of 4 letters or more so that short words of another
   * language ("die", "sea") are not mistaken for them; failing that, the language's broad keywords.
   */
  private topicOf(message: string, locale: Locale): CompiledTopic | undefined {
    const language = this.locale(locale);
    const own = bestTopic(message, language, language.keywords);
    if (own) return own;
    if (locale !== FALLBACK_LOCALE) {
      const english = this.locale(FALLBACK_LOCALE);
      const found = bestTopic(message, english, english.fallbackKeywords);
      if (found) return language.byId.get(found.id);
    }
    return bestTopic(message, language, language.broadKeywords);
  }

  private locale(locale: Locale): CompiledLocale {
    const compiled = this.locales.get(locale);
    if (!compiled) throw new Error(`No offline knowledge for ${locale}`);
    return compiled;
  }
}

function compileLocale(knowledge: Knowledge, data: LocaleKnowledge): CompiledLocale {
  const matching: Matching = data.matching;
  const phraseMatching: Matching = { ...matching, prefixes: [], suffixes: [] };
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
    };
  });
  const compile = (phrases: readonly string[], how: Matching) =>
    phrases.map((phrase) => compilePattern(phrase, how));
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
    moreWords: indexPatterns([compile(data.moreWords, phraseMatching)], phraseMatching),
    helloWords: indexPatterns([compile(data.helloWords, phraseMatching)], phraseMatching),
    noWords: indexPatterns([compile(data.noWords, phraseMatching)], phraseMatching),
  };
}

/** The topic whose patterns cover the message best, if any matched. */
function bestTopic(
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

/**
 * The topic last discussed, within the last few exchanges: the newest assistant turn that holds one of
 * this tutor's texts tells the topic and how far it went; failing that (another provider answered), the
 * newest learner turn naming one.
 */
function lastTopic(history: readonly ChatTurn[], language: CompiledLocale): LastTopic | undefined {
  for (const turn of history.slice(-HISTORY_LOOKBACK_TURNS).reverse()) {
    if (turn.role === 'assistant') {
      for (const topic of language.topics) {
        if (turn.content.includes(topic.text.more)) return { topic, stage: 'more' };
        if (turn.content.includes(topic.text.explanation)) return { topic, stage: 'explanation' };
      }
    } else {
      const topic = bestTopic(turn.content, language, language.keywords);
      if (topic) return { topic, stage: 'explanation' };
    }
  }
  return undefined;
}

function explanation(language: CompiledLocale, topic: CompiledTopic): TutorReply {
  const response = [topic.text.explanation, topic.text.check.question].join(language.joiner);
  return topic.imagePrompt ? { response, imagePrompt: topic.imagePrompt } : { response };
}

function continuation(language: CompiledLocale, topic: CompiledTopic): TutorReply {
  const next = language.byId.get(topic.next);
  return {
    response: fill(language.data.continuation, { more: topic.text.more, next: next?.text.name ?? '' }),
  };
}

/** A reply built on `template` naming a few popular topics, chosen by a hash of the message. */
function suggest(language: CompiledLocale, template: string, message: string): TutorReply {
  const favourites = language.topics.filter((topic) => topic.priority === 3);
  const pool = favourites.length >= SUGGESTION_COUNT ? favourites : language.topics;
  const start = stableHash(message) % pool.length;
  const names = Array.from(
    { length: Math.min(SUGGESTION_COUNT, pool.length) },
    (_, offset) => pool[(start + offset) % pool.length]?.text.name ?? '',
  );
  return { response: fill(template, { topics: listOf(names, language.data.list) }) };
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
