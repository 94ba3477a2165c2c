/**
 * The offline tutor: no network, deterministic (the same request always gets the same reply). It answers
 * from the knowledge files in ./knowledge, in the conversation's language:
 * - `__INIT__ …` → the greeting;
 * - "quiz me" → three check questions, one at a time (quiz.ts, docs/behaviour.md §17.3);
 * - a message while the check question Astro's last turn asked is open → judged from the lessons, or
 *   explained again, or answered, with the question asked again (checks.ts, §17.2);
 * - a message naming a topic → its lesson at the learner's level and its check question (+ its picture
 *   prompt);
 * - "tell me more", "yes", "continue"… → more about the last topic discussed (read back from the history),
 *   then an offer of the next topic; after that, "yes" moves on to the offered topic;
 * - "hello" with no topic → the greeting again; "no" → a few other topics to explore;
 * - anything else → a friendly reply suggesting a few topics.
 * It never echoes the learner's words, so a reply is always text from the data files.
 */
import { INIT_MARKER, LOCALES, type Locale } from '../../contract/languages';
import type { ChatTurn } from '../../contract/schemas';
import { DEFAULT_LEVEL, type Level } from '../../contract/teaching';
import { doneEvent, type Tutor, type TutorReply, type TutorRequest, type TutorStreamEvent } from '../tutor';
import { assistantTurns, continuationText, openCheck, readMessage, respond } from './checks';
import {
  bestTopic,
  compileLocale,
  fill,
  joinSentences,
  lessonIn,
  lessonText,
  listOf,
  type CompiledLocale,
  type CompiledTopic,
  type Stage,
} from './compiled-locale';
import { loadKnowledge, type Knowledge } from './knowledge';
import { mentions, prepareMessage, stableHash } from './matcher';
import { startQuiz } from './quiz';

/** How many words (or, in Chinese and Japanese, word-like segments) one streamed piece holds. */
const WORDS_PER_PIECE = 4;
/** How many topics a not-understood reply suggests. */
const SUGGESTION_COUNT = 3;
/** The language whose keywords are tried when none in the conversation's language matched. */
const FALLBACK_LOCALE: Locale = 'en-US';
/** How far back "tell me more" looks for the topic being discussed: the last few exchanges. */
const HISTORY_LOOKBACK_TURNS = 12;

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
    const level = request.level ?? DEFAULT_LEVEL;
    const message = request.userMessage.trim();
    if (message.startsWith(INIT_MARKER)) return { response: language.data.greeting };

    const topic = this.topicOf(message, request.language);
    const phrases = prepareMessage(message, language.phraseMatching);
    if (mentions(phrases, language.quizWords, language.phraseMatching)) {
      return startQuiz(message, topic, request.history, language, level);
    }
    const open = openCheck(request.history, language);
    if (open) {
      return respond(
        {
          open,
          reading: readMessage(message, open, this.topicOf(message, request.language, false), language),
          level,
          message,
          turns: assistantTurns(request.history),
        },
        language,
      );
    }

    const wantsMore = mentions(phrases, language.moreWords, language.phraseMatching);
    const last = wantsMore ? lastTopic(request.history, language) : undefined;

    if (topic) {
      return last && last.topic.id === topic.id
        ? continuation(language, topic)
        : explanation(language, topic, level);
    }
    if (last) {
      const next = language.byId.get(last.topic.next);
      return last.stage === 'more' && next
        ? explanation(language, next, level)
        : continuation(language, last.topic);
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
   * language ("die", "sea") are not mistaken for them; failing that (unless `broad` is false: while a
   * check question is open a broad word such as "planet" may be one of its options), the language's
   * broad keywords.
   */
  private topicOf(message: string, locale: Locale, broad = true): CompiledTopic | undefined {
    const language = this.locale(locale);
    const own = bestTopic(message, language, language.keywords);
    if (own) return own;
    if (locale !== FALLBACK_LOCALE) {
      const english = this.locale(FALLBACK_LOCALE);
      const found = bestTopic(message, english, english.fallbackKeywords);
      if (found) return language.byId.get(found.id);
    }
    return broad ? bestTopic(message, language, language.broadKeywords) : undefined;
  }

  private locale(locale: Locale): CompiledLocale {
    const compiled = this.locales.get(locale);
    if (!compiled) throw new Error(`No offline knowledge for ${locale}`);
    return compiled;
  }
}

/**
 * The topic last discussed, within the last few exchanges: the newest assistant turn that holds one of
 * this tutor's texts tells the topic and how far it went; failing that (another provider answered), the
 * newest learner turn naming one.
 */
function lastTopic(history: readonly ChatTurn[], language: CompiledLocale): LastTopic | undefined {
  for (const turn of history.slice(-HISTORY_LOOKBACK_TURNS).reverse()) {
    if (turn.role === 'assistant') {
      const lesson = lessonIn(turn.content, language);
      if (lesson) return lesson;
    } else {
      const topic = bestTopic(turn.content, language, language.keywords);
      if (topic) return { topic, stage: 'explanation' };
    }
  }
  return undefined;
}

/** The topic's lesson at the learner's level, ending with its check question (§17.1–§17.2). */
function explanation(language: CompiledLocale, topic: CompiledTopic, level: Level): TutorReply {
  const response = joinSentences(language, lessonText(topic, level), topic.text.check.question);
  return {
    response,
    ...(topic.imagePrompt ? { imagePrompt: topic.imagePrompt } : {}),
    check: { type: 'question' },
  };
}

function continuation(language: CompiledLocale, topic: CompiledTopic): TutorReply {
  return { response: continuationText(language, topic) };
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
