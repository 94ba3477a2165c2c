/**
 * Checks for understanding, offline (docs/behaviour.md §17.2): which check question is open is read from
 * Astro's last turn in the history (signed, so it is what Astro really said), and the learner's answer is
 * judged against that question's accepted answers in the lesson files, never by reading prose.
 */
import type { ChatTurn } from '../../contract/schemas';
import type { TutorReply } from '../tutor';
import {
  fill,
  joinSentences,
  questionAtEnd,
  type CompiledLocale,
  type CompiledTopic,
} from './compiled-locale';
import { mentions, prepareMessage } from './matcher';
import { afterQuizAnswer, quizProgress, type QuizProgress } from './quiz';

/** The check question Astro's last turn ended with, and how the learner has tried so far. */
export interface OpenCheck {
  readonly topic: CompiledTopic;
  /** The learner already had the hint: another wrong try reveals the answer. */
  readonly secondTry: boolean;
  /** Set when the question is one of a quiz's. */
  readonly quiz?: QuizProgress;
}

/** Astro's turns in the history, oldest first. */
export function assistantTurns(history: readonly ChatTurn[]): string[] {
  return history.filter((turn) => turn.role === 'assistant').map((turn) => turn.content);
}

/** The check question left open by Astro's last turn, if any (§17.2). */
export function openCheck(history: readonly ChatTurn[], language: CompiledLocale): OpenCheck | undefined {
  const turns = assistantTurns(history);
  const last = turns[turns.length - 1];
  if (last === undefined) return undefined;
  const topic = questionAtEnd(last, language);
  if (!topic) return undefined;
  // A quiz in progress always has its current question at the end of Astro's last turn.
  const quiz = quizProgress(turns, language);
  return {
    topic,
    // The hint is only ever said in the try-again reply, right before the question is asked again.
    secondTry: last.includes(topic.text.check.hint),
    ...(quiz ? { quiz } : {}),
  };
}

/** Whether the learner gave one of the accepted answers; "I don't know" never counts as one. */
export function isRightAnswer(message: string, check: OpenCheck, language: CompiledLocale): boolean {
  const phrases = prepareMessage(message, language.phraseMatching);
  if (mentions(phrases, language.dontKnowWords, language.phraseMatching)) return false;
  return mentions(prepareMessage(message, language.matching), check.topic.answers, language.matching);
}

/**
 * The reply judging the learner's answer: right → well done (then the rest of the lesson, or the quiz's
 * next step); wrong the first time → the hint and the question again, which stays open; wrong again →
 * the answer, and the question is closed.
 */
export function judge(check: OpenCheck, correct: boolean, language: CompiledLocale): TutorReply {
  const { data } = language;
  const { text } = check.topic;
  if (!correct && !check.secondTry) {
    return {
      response: joinSentences(
        language,
        fill(data.checkTryAgain, { hint: text.check.hint }),
        text.check.question,
      ),
      check: { type: 'answer', correct: false },
    };
  }
  const verdict = correct ? data.checkCorrect : fill(data.checkReveal, { answer: text.check.answer });
  const then = check.quiz
    ? afterQuizAnswer(check.quiz, correct, language)
    : correct
      ? continuationText(language, check.topic)
      : undefined;
  return {
    response: then === undefined ? verdict : joinSentences(language, verdict, then),
    check: { type: 'answer', correct },
  };
}

/** The topic's "more" text and the offer of the topic after it. */
export function continuationText(language: CompiledLocale, topic: CompiledTopic): string {
  const next = language.byId.get(topic.next);
  // Stryker disable next-line StringLiteral: the knowledge schema makes every next name a topic.
  return fill(language.data.continuation, { more: topic.text.more, next: next?.text.name ?? '' });
}
