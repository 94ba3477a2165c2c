/**
 * The offline tutor: no network, deterministic (the same request always gets the same reply). It answers
 * from the lesson files in ./knowledge, in the conversation's language (docs/behaviour.md §15.2):
 * - `__INIT__ …` → the greeting;
 * - "quiz me" → three check questions, one at a time (quiz.ts, §17.3);
 * - a message while the check question Astro's last turn asked is open → judged from the lessons, or
 *   explained again, or answered, with the question asked again (checks.ts, §17.2);
 * - a sad or frightened learner, or a request that could hurt someone → a kind, specific reply;
 * - a message naming a topic → the fact that answers what was asked (answers.ts, §15.11), then the
 *   lesson at the learner's level and its check question (+ its picture prompt); when Astro has no fact
 *   for what was asked, it says so kindly before the lesson;
 * - "tell me more", "yes", "continue"… → more about the last topic discussed (read back from the history),
 *   then an offer of the next topic; after that, "yes" moves on to the offered topic;
 * - "hello" with no topic → the greeting again; "no" → a few other topics to explore;
 * - a question that is not about space → a kind "outside my sky" reply; anything else → a friendly reply
 *   suggesting a few topics.
 * It never echoes the learner's words, so a reply is always text from the data files.
 */
import { INIT_MARKER, type Locale } from '../../contract/languages';
import type { ChatTurn } from '../../contract/schemas';
import { DEFAULT_LEVEL } from '../../contract/teaching';
import { ApiError } from '../../lib/api-error';
import { errorFields, log } from '../../lib/log';
import { doneEvent, type Tutor, type TutorReply, type TutorRequest, type TutorStreamEvent } from '../tutor';
import { allOccurrences, unitsOf } from './message-units';
import { shapesAsked } from './answers';
import { assistantTurns, openCheck, readMessage, respond } from './checks';
import { ownQuestion } from './own-questions';
import {
  bestMatch,
  lessonIn,
  type CompiledLocale,
  type CompiledTopic,
  type Stage,
  type TopicMatch,
} from './compiled-locale';
import { lessons as fileLessons, type Lessons } from './knowledge';
import { answerQuestion, calmTopics, continuation, lessonReply, suggest } from './lesson-replies';
import { SPECIFIC_SHAPES } from './knowledge-schema';
import { mentions, prepareMessage } from './matcher';
import { startQuiz } from './quiz';
import { vocabularyOf } from './vocabulary';

/** How many words (or, in Chinese and Japanese, word-like segments) one streamed piece holds. */
const WORDS_PER_PIECE = 4;
/** The language whose keywords are tried when none in the conversation's language matched. */
const FALLBACK_LOCALE: Locale = 'en-US';
/** How far back "tell me more" looks for the topic being discussed: the last few exchanges. */
const HISTORY_LOOKBACK_TURNS = 12;
/** Below this share of known words a message is not answered with confidence (§15.4). */
const KNOWN_WORDS_MIN = 0.5;

interface LastTopic {
  readonly topic: CompiledTopic;
  readonly stage: Stage;
}

export function createOfflineTutor(lessons: Lessons = fileLessons): Tutor {
  const engine = new OfflineEngine(lessons);
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

/** The reply rules over the lessons, each language compiled on its first use (§15.9). */
class OfflineEngine {
  /** The languages whose lessons could not be loaded, logged once each. */
  private readonly broken = new Set<Locale>();

  constructor(private readonly lessons: Lessons) {}

  answer(request: TutorRequest): TutorReply {
    const language = this.locale(request.language);
    const level = request.level ?? DEFAULT_LEVEL;
    const message = request.userMessage.trim();
    if (message.startsWith(INIT_MARKER)) return { response: language.data.greeting };

    const match = this.topicOf(message, request.language);
    const topic = match?.topic;
    const phrases = prepareMessage(message, language.phraseMatching);
    if (mentions(phrases, language.quizWords, language.phraseMatching)) {
      return startQuiz(message, topic, request.history, language, level);
    }
    const open = openCheck(request.history, language, level);
    if (open) {
      return respond(
        {
          open,
          reading: readMessage(
            message,
            open,
            this.topicOf(message, request.language, false)?.topic,
            language,
          ),
          level,
          message,
          turns: assistantTurns(request.history),
        },
        language,
      );
    }

    const care = concern(message, language, match);
    if (care === 'sad') return suggest(language, language.data.sad, message, calmTopics(language));
    if (care === 'unsafe') return suggest(language, language.data.unsafe, message);

    const asked = shapesAsked(message, language);
    const wantsMore = mentions(phrases, language.moreWords, language.phraseMatching);
    if (topic) {
      // "blorp zibble wakka moon cheese": a topic word among words Astro never uses is no question.
      if (vocabularyOf(language.data).knownShare(message) < KNOWN_WORDS_MIN)
        return suggest(language, language.data.notUnderstood, message, [], topic);
      // "Tell me more about Mars" goes on; "si può vivere su Marte?" is a new question, answered.
      const last = wantsMore && asked.length === 0 ? lastTopic(request.history, language) : undefined;
      return last && last.topic.id === topic.id
        ? continuation(language, topic, level)
        : answerQuestion(language, topic, message, level);
    }
    const last = lastTopic(request.history, language);
    // "How big is it?" after a lesson asks about that lesson's topic.
    if (last && asked.some((shape) => SPECIFIC_SHAPES.has(shape)))
      return answerQuestion(language, last.topic, message, level);
    if (wantsMore && last) {
      const next = language.byId.get(last.topic.next);
      return last.stage === 'more' && next
        ? lessonReply(language, next, level)
        : continuation(language, last.topic, level);
    }
    if (mentions(phrases, language.helloWords, language.phraseMatching)) {
      return { response: language.data.greeting };
    }
    if (mentions(phrases, language.noWords, language.phraseMatching)) {
      return suggest(language, language.data.declined, message);
    }
    const asking = asked.length > 0 || ownQuestion(message, language) !== undefined;
    if (asking && vocabularyOf(language.data).knownShare(message) >= KNOWN_WORDS_MIN)
      return suggest(language, language.data.offTopic, message);
    return suggest(language, language.data.notUnderstood, message);
  }

  /**
   * The best topic in the conversation's language; failing that, in English (learners often use English
   * space words), counting only English keywords of 4 letters or more so that short words of another
   * language ("die", "sea") are not mistaken for them; failing that (unless `broad` is false: while a
   * check question is open a broad word such as "planet" may be one of its options), the language's
   * broad keywords.
   */
  private topicOf(message: string, locale: Locale, broad = true): TopicMatch | undefined {
    const language = this.locale(locale);
    const own = bestMatch(message, language, language.keywords);
    if (own) return own;
    if (locale !== FALLBACK_LOCALE) {
      const english = this.locale(FALLBACK_LOCALE);
      const found = bestMatch(message, english, english.fallbackKeywords);
      const topic = found ? language.byId.get(found.topic.id) : undefined;
      if (found && topic) return { topic, score: found.score };
    }
    return broad ? bestMatch(message, language, language.broadKeywords) : undefined;
  }

  /**
   * A language's lessons, compiled on first use. Lessons that cannot be read or are broken make the
   * reply 503 `not_configured` (§15.9), logged once per language.
   */
  private locale(locale: Locale): CompiledLocale {
    try {
      return this.lessons.language(locale);
    } catch (error) {
      if (!this.broken.has(locale)) {
        this.broken.add(locale);
        log.error('offline lessons unusable', { locale, ...errorFields(error) });
      }
      throw new ApiError('not_configured', 'This endpoint is not configured on the server.');
    }
  }
}

/**
 * Whether the learner is sad or frightened, or asks for something that could hurt someone (§15.13). A
 * feeling counts when it says more than the space words beside it ("I'm scared of black holes" is a
 * question about black holes); a risky word beside a space topic only with words that put it in the
 * learner's own hands ("do rockets use petrol?" is a question, "a rocket with petrol at home" is not).
 */
function concern(
  message: string,
  language: CompiledLocale,
  match: TopicMatch | undefined,
): 'sad' | 'unsafe' | undefined {
  const said = unitsOf(message, language.phraseMatching);
  const letters = (spans: readonly { start: number; end: number }[]) => {
    const covered = new Set<number>();
    for (const span of spans) for (let at = span.start; at < span.end; at += 1) covered.add(at);
    return [...covered].reduce((sum, at) => sum + (said.units[at]?.length ?? 0), 0);
  };
  const sad = letters(allOccurrences(said, language.sadWords, language.phraseMatching));
  if (sad > 0 && (!match || sad > match.score)) return 'sad';
  const unsafe = allOccurrences(said, language.unsafeWords, language.phraseMatching).length > 0;
  const ownHands = allOccurrences(said, language.homeWords, language.phraseMatching).length > 0;
  if (unsafe && (!match || ownHands)) return 'unsafe';
  return undefined;
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
      const found = bestMatch(turn.content, language, language.keywords);
      if (found) return { topic: found.topic, stage: 'explanation' };
    }
  }
  return undefined;
}
