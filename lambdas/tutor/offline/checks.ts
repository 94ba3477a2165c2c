/**
 * Checks for understanding, offline (docs/behaviour.md §17.2): which check question is open is read from
 * Astro's last turn in the history (signed, so it is what Astro really said), and the learner's message is
 * read against that question's options in the lesson files, never by reading prose:
 * - an answer is right when it names an accepted answer, names no known mistake, and does not negate the
 *   accepted one; a named mistake is wrong and gets the hint that speaks to it; both options named is
 *   neither: the learner picks one, no try used;
 * - asking for help ("why?", "what do you mean?", "I don't get it") or a question of the learner's own is
 *   not an answer: Astro explains again, or answers it, and asks the same question again, no try used;
 * - "I don't know", and anything else, is a try without an answer: the hint, then the answer.
 * Each question earns at most one star per conversation (§17.4): a right answer to a question already
 * answered right is praised, and not reported as a new right answer.
 */
import type { ChatTurn } from '../../contract/schemas';
import type { Level } from '../../contract/teaching';
import type { TutorReply } from '../tutor';
import { givesUp, givingUpSpans, namesAnOption, readAnswer } from './answer-reading';
import {
  fill,
  joinSentences,
  questionAtEnd,
  topicOfCheck,
  type CompiledCheck,
  type CompiledLocale,
  type CompiledTopic,
} from './compiled-locale';
import { occurrences, saysAny, unitsOf, type Units } from './message-units';
import { afterQuizAnswer, isCorrectVerdict, quizProgress, type QuizProgress } from './quiz';
import { asksAnywhere, ownQuestion } from './own-questions';
import { answerAside, answerOwnQuestion, explainAgain } from './re-explain';

/** The check question Astro's last turn ended with, and how the learner has tried so far. */
export interface OpenCheck {
  readonly topic: CompiledTopic;
  /** The level's check that was asked (each level has its own, §17.1). */
  readonly check: CompiledCheck;
  /** The learner already had a hint for this asking of the question: another wrong try reveals the answer. */
  readonly secondTry: boolean;
  /** Astro's turns since the question was asked, oldest first (what was said while it is open). */
  readonly asked: readonly string[];
  /** Set when the question is one of a quiz's. */
  readonly quiz?: QuizProgress;
}

/** Astro's turns in the history, oldest first. */
export function assistantTurns(history: readonly ChatTurn[]): string[] {
  return history.filter((turn) => turn.role === 'assistant').map((turn) => turn.content);
}

/**
 * The check question left open by Astro's last turn, if any (§17.2); where levels share a question, the
 * learner's level's check.
 */
export function openCheck(
  history: readonly ChatTurn[],
  language: CompiledLocale,
  level?: Level,
): OpenCheck | undefined {
  const turns = assistantTurns(history);
  const last = turns[turns.length - 1];
  if (last === undefined) return undefined;
  const check = questionAtEnd(last, language, level);
  if (!check) return undefined;
  const question = check.text.question;
  // The question stays open over every turn that ends with it: a hint, an explanation, an aside.
  let first = turns.length - 1;
  while (first > 0 && (turns[first - 1] ?? '').trimEnd().endsWith(question)) first -= 1;
  const asked = turns.slice(first);
  // A hint is only ever said in the try-again reply, right before the question is asked again.
  const tries = check.hints.map((hint) => fill(language.data.checkTryAgain, { hint }));
  const quiz = quizProgress(turns, language, level);
  return {
    topic: topicOfCheck(check, language),
    check,
    secondTry: asked.some((turn) => tries.some((sentence) => turn.includes(sentence))),
    asked,
    ...(quiz ? { quiz } : {}),
  };
}

/** What the learner's message is, to a teacher who has just asked the open question. */
export type Reading =
  | { readonly kind: 'right' }
  | { readonly kind: 'wrong'; readonly mistake?: number }
  | { readonly kind: 'pick-one' }
  | { readonly kind: 'explain'; readonly mistake?: number; readonly asked?: boolean }
  | { readonly kind: 'aside'; readonly topic: CompiledTopic }
  | { readonly kind: 'no-answer' };

/**
 * Reads the learner's message against the open question. `other` is the topic the message names by
 * the topic's own words, if any (never by a broad word such as "planet", which may be an option).
 */
export function readMessage(
  message: string,
  open: OpenCheck,
  other: CompiledTopic | undefined,
  language: CompiledLocale,
): Reading {
  const { matching } = language;
  const reading = readAnswer(message, open.check.options, language.judging, matching);
  const named = namesAnOption(reading);
  const elsewhere = other && other.id !== open.topic.id ? other : undefined;
  // In Chinese and Japanese a question word may come late (「那星星为什么会一闪一闪的」): beside another
  // topic's own words it asks about that topic.
  const asking =
    ownQuestion(message, language) ??
    (elsewhere && matching.mode === 'characters' && asksAnywhere(message, language) ? 'open' : undefined);
  const firstMistake = reading.mistakes[0];
  const said = unitsOf(message, matching);
  // «c'est quoi la réponse» gives up; its «quoi» is no request for help.
  const givingUp = givingUpSpans(said, language.judging, matching);
  const helps =
    asksForHelp(said, language) &&
    !occurrences(said, language.help, matching).every((help) =>
      givingUp.some((span) => span.start <= help.start && span.end >= help.end),
    );
  // "What's the answer?", 「答えを教えて」: giving up, even in the words of a question («no se ve» is none).
  if (!named && !reading.both && !helps && givesUp(said, language.judging, matching, language.openers))
    return { kind: 'no-answer' };

  // "What does planet mean?": about an option's word, which its hint explains.
  if (firstMistake !== undefined && asksForHelp(said, language, language.helpMeaning))
    return { kind: 'explain', mistake: firstMistake };
  // "What do you mean?" asks what the question means, not for a fact about a "mean" anything.
  if (!named && !elsewhere && asksForHelp(said, language, language.helpMeaning)) return { kind: 'explain' };
  // "Why?", "what's a planet?", "how far is the Moon?": a question is never an answer.
  if (asking === 'open') {
    // "How far is the Moon?" is about another topic, even when that topic is the answer: it is answered.
    // "What's a planet?" is about a wrong option: its hint explains it.
    if (elsewhere) return { kind: 'aside', topic: elsewhere };
    if (firstMistake !== undefined) return { kind: 'explain', mistake: firstMistake };
    return { kind: 'explain', asked: true };
  }
  if (!named && !reading.both && helps) return { kind: 'explain' };
  if (reading.both || (reading.right && reading.mistakes.length > 0)) return { kind: 'pick-one' };
  if (firstMistake !== undefined) return { kind: 'wrong', mistake: firstMistake };
  if (reading.right) return { kind: 'right' };
  if (reading.negatesRight) {
    // "Not a star": when the question has one wrong option, the learner chose it.
    const only = open.check.options.mistakes.length === 1 ? 0 : undefined;
    return { kind: 'wrong', ...(only === undefined ? {} : { mistake: only }) };
  }
  // "Not a planet": nothing chosen yet; no try used.
  if (reading.negatesMistake) return { kind: 'pick-one' };
  if (asking === 'yes-no')
    return elsewhere ? { kind: 'aside', topic: elsewhere } : { kind: 'explain', asked: true };
  // "Show me Saturn" asks about another topic; in a quiz, "it must be Saturn" is a (wrong) answer.
  if (elsewhere && !open.quiz) return { kind: 'aside', topic: elsewhere };
  return { kind: 'no-answer' };
}

/**
 * Whether the learner asks for help. In Chinese and Japanese a help phrase of one or two characters
 * (「え？」, 「ん？」) is help only as the whole message: inside a sentence it is part of other words.
 */
function asksForHelp(
  said: Units,
  language: CompiledLocale,
  phrases: readonly (readonly string[])[] = language.help,
): boolean {
  const { matching } = language;
  if (matching.mode === 'words') return saysAny(said, phrases, matching);
  const whole = said.units.join('');
  return phrases.some((phrase) =>
    phrase.length <= 2 ? phrase.join('') === whole : saysAny(said, [phrase], matching),
  );
}

/** Whether the learner already answered this question right earlier in the conversation (§17.4). */
function answeredRightBefore(
  check: CompiledCheck,
  turns: readonly string[],
  language: CompiledLocale,
): boolean {
  return turns.some(
    (turn, index) =>
      index > 0 &&
      isCorrectVerdict(turn, language) &&
      (turns[index - 1] ?? '').trimEnd().endsWith(check.text.question),
  );
}

export interface Judging {
  readonly open: OpenCheck;
  readonly reading: Reading;
  readonly level: Level;
  readonly message: string;
  /** Astro's turns in the history, oldest first. */
  readonly turns: readonly string[];
}

/**
 * The reply to the learner's message while a question is open: judged (right, wrong, the answer after a
 * second miss), or not judged (pick one, explained again, another topic answered) with the same question
 * asked again. `openQuestion` says when a judgement also asks a question (docs/behaviour.md §7, §17.5).
 */
export function respond(judging: Judging, language: CompiledLocale): TutorReply {
  const { open, reading } = judging;
  const { data } = language;
  const question = open.check.text.question;
  switch (reading.kind) {
    case 'pick-one':
      return { response: fill(data.checkPickOne, { question }), check: { type: 'question' } };
    case 'explain': {
      // A question of the learner's own that the lesson answers: "Good question!", the answer, the question.
      const answer = reading.asked
        ? answerOwnQuestion(judging.message, open.topic, judging.level, language, open.check)
        : undefined;
      return {
        response: answer
          ? fill(data.checkAside, { text: answer, question })
          : fill(data.checkExplain, {
              text: explainAgain(
                judging.message,
                open.topic,
                open.check,
                judging.level,
                language,
                open.asked,
                reading.mistake,
              ),
              question,
            }),
        check: { type: 'question' },
      };
    }
    case 'aside':
      return {
        response: fill(data.checkAside, {
          text: answerAside(judging.message, reading.topic, judging.level, language, open.check),
          question,
        }),
        ...(reading.topic.imagePrompt ? { imagePrompt: reading.topic.imagePrompt } : {}),
        check: { type: 'question' },
      };
    case 'right':
      return judge(
        open,
        { correct: true, again: answeredRightBefore(open.check, judging.turns, language) },
        judging.level,
        language,
      );
    case 'wrong':
      return judge(
        open,
        { correct: false, ...(reading.mistake === undefined ? {} : { mistake: reading.mistake }) },
        judging.level,
        language,
      );
    case 'no-answer':
      return judge(open, { correct: false }, judging.level, language);
  }
}

/**
 * The reply judging the learner's answer: right → well done (then the rest of the lesson, or the quiz's
 * next step); wrong the first time → the hint (the mistake's own when it is known) and the question again,
 * which stays open; wrong again → the answer, and the question is closed. A right answer to a question
 * already answered right carries no new judgement (no second star).
 */
export function judge(
  check: OpenCheck,
  verdict: { readonly correct: boolean; readonly mistake?: number; readonly again?: boolean },
  level: Level,
  language: CompiledLocale,
): TutorReply {
  const { correct, mistake, again = false } = verdict;
  const { data } = language;
  const { text } = check.check;
  if (!correct && !check.secondTry) {
    const hint = (mistake === undefined ? undefined : text.mistakes[mistake]?.hint) ?? text.hint;
    return {
      response: joinSentences(language, fill(data.checkTryAgain, { hint }), text.question),
      check: { type: 'answer', correct: false, openQuestion: true },
    };
  }
  const said = correct
    ? again
      ? data.checkCorrectAgain
      : data.checkCorrect
    : fill(data.checkReveal, { answer: text.answer });
  const then = check.quiz
    ? afterQuizAnswer(check.quiz, correct, language, level)
    : correct
      ? continuationText(language, check.topic, check.check.level)
      : undefined;
  const asksNext = then !== undefined && questionAtEnd(then, language) !== undefined;
  const response = then === undefined ? said : joinSentences(language, said, then);
  if (correct && again) return { response, ...(asksNext ? { check: { type: 'question' } } : {}) };
  return {
    response,
    check: { type: 'answer', correct, ...(asksNext ? { openQuestion: true } : {}) },
  };
}

/** The level's "more" text and the offer of the topic after it. */
export function continuationText(language: CompiledLocale, topic: CompiledTopic, level: Level): string {
  const next = language.byId.get(topic.next);
  return fill(language.data.continuation, {
    more: topic.levels[level].more,
    // Stryker disable next-line StringLiteral: the knowledge schema makes every next name a topic.
    next: next?.text.name ?? '',
  });
}
