/**
 * "Quiz me", offline (docs/behaviour.md §17.3): three check questions one at a time, then the score and a
 * recap. The server keeps no state: the quiz in progress is read back from Astro's turns in the history
 * (its opening names the quiz's topics and asks the first question; each later turn ends with the question
 * now open, and a right answer is marked by the "well done" sentence).
 */
import type { ChatTurn } from '../../contract/schemas';
import type { TutorReply } from '../tutor';
import {
  bestTopic,
  fill,
  lessonIn,
  questionAtEnd,
  type CompiledLocale,
  type CompiledTopic,
} from './compiled-locale';
import { stableHash } from './matcher';

/** How many questions a quiz asks. */
export const QUIZ_LENGTH = 3;

/** A quiz in progress: its topics in order, the question open now, and the right answers so far. */
export interface QuizProgress {
  readonly plan: readonly CompiledTopic[];
  /** Index in `plan` of the question open now. */
  readonly position: number;
  readonly score: number;
}

/** The reply opening a quiz on `named` (and related topics) or on the topics of this conversation. */
export function startQuiz(
  message: string,
  named: CompiledTopic | undefined,
  history: readonly ChatTurn[],
  language: CompiledLocale,
): TutorReply {
  const plan = planQuiz(message, named, history, language);
  const first = plan[0];
  if (!first) throw new Error(`${language.data.locale}: a quiz needs topics`);
  return {
    response: fill(language.data.quizStart, {
      topics: namesOf(plan, language),
      question: first.text.check.question,
    }),
    check: { type: 'question' },
  };
}

/**
 * The quiz's topics: the named one, else the topics taught in this conversation (newest first), then
 * the topics each of those leads on to, then the most popular ones, until there are three.
 */
function planQuiz(
  message: string,
  named: CompiledTopic | undefined,
  history: readonly ChatTurn[],
  language: CompiledLocale,
): CompiledTopic[] {
  const plan: CompiledTopic[] = [];
  const add = (topic: CompiledTopic | undefined) => {
    if (topic && plan.length < QUIZ_LENGTH && !plan.some((chosen) => chosen.id === topic.id))
      plan.push(topic);
  };
  if (named) add(named);
  else discussed(history, language).forEach(add);
  const favourites = language.topics.filter((topic) => topic.priority === 3);
  // With nothing to go on, a popular topic chosen by the message, so the same request gets the same quiz.
  if (plan.length === 0) add(favourites[stableHash(message) % Math.max(favourites.length, 1)]);
  // The loop also visits the topics it adds, so each leads on to the next.
  for (const topic of plan) add(language.byId.get(topic.next));
  favourites.forEach(add);
  language.topics.forEach(add);
  return plan;
}

/**
 * The topics of this conversation, newest first: those Astro taught (its turns holding a lesson text);
 * failing that (another tutor wrote the replies), those the learner named.
 */
function discussed(history: readonly ChatTurn[], language: CompiledLocale): CompiledTopic[] {
  const newestFirst = [...history].reverse();
  const taught = newestFirst.flatMap((turn) => {
    const lesson = turn.role === 'assistant' ? lessonIn(turn.content, language) : undefined;
    return lesson ? [lesson.topic] : [];
  });
  if (taught.length > 0) return taught;
  return newestFirst.flatMap((turn) => {
    const topic = turn.role === 'user' ? bestTopic(turn.content, language, language.keywords) : undefined;
    return topic ? [topic] : [];
  });
}

/**
 * The quiz in progress, read from Astro's turns (oldest first): going back from the last turn, every turn
 * ends with a check question and holds no lesson, until the quiz's opening; the questions go in the plan's
 * order, each asked once or twice (after a hint).
 */
export function quizProgress(turns: readonly string[], language: CompiledLocale): QuizProgress | undefined {
  for (let start = turns.length - 1; start >= 0; start -= 1) {
    const turn = turns[start] ?? '';
    const plan = planIn(turn, language);
    if (plan) return progressFrom(plan, turns.slice(start), language);
    if (lessonIn(turn, language)) return undefined;
  }
  return undefined;
}

function progressFrom(
  plan: readonly CompiledTopic[],
  turns: readonly string[],
  language: CompiledLocale,
): QuizProgress | undefined {
  let position = 0;
  let score = 0;
  for (const [index, turn] of turns.entries()) {
    const asked = questionAtEnd(turn, language);
    const at = plan.findIndex((topic) => topic.id === asked?.id);
    if (at !== position && at !== position + 1) return undefined;
    if (index > 0 && turn.includes(language.data.checkCorrect)) score += 1;
    position = at;
  }
  return { plan, position, score };
}

/**
 * The quiz's topics, if `turn` is a quiz opening: the text around `{topics}` is the template's, the named
 * list is exactly how the quiz would list its topics, and the first of them asks the question that ends it.
 */
function planIn(turn: string, language: CompiledLocale): CompiledTopic[] | undefined {
  const [before = '', rest = ''] = language.data.quizStart.split('{topics}');
  const between = rest.trimEnd().slice(0, -'{question}'.length);
  const first = questionAtEnd(turn, language);
  const trimmed = turn.trimEnd();
  if (!first || !trimmed.startsWith(before)) return undefined;
  const tail = `${between}${first.text.check.question}`;
  if (!trimmed.endsWith(tail)) return undefined;
  const listed = trimmed.slice(before.length, trimmed.length - tail.length);
  // Stryker disable next-line MethodExpression,ConditionalExpression: a shortcut; only listed topics can make the list.
  const named = language.topics.filter((topic) => listed.includes(topic.text.name));
  for (const second of named)
    for (const third of named) {
      const plan = [first, second, third];
      if (namesOf(plan, language) === listed) return plan;
    }
  return undefined;
}

/**
 * What follows the judgement of a quiz answer: the next question, or after the last one the score and
 * the recap.
 */
export function afterQuizAnswer(progress: QuizProgress, correct: boolean, language: CompiledLocale): string {
  const { data } = language;
  const next = progress.plan[progress.position + 1];
  if (next) return fill(data.quizNext, { question: next.text.check.question });
  return fill(data.quizScore, {
    score: String(progress.score + (correct ? 1 : 0)),
    total: String(progress.plan.length),
    recap: fill(data.quizRecap, { topics: namesOf(progress.plan, language) }),
  });
}

/**
 * The quiz's topics as the language lists them, all with its separator: the list's last word is "or"
 * (made for suggestions), and a quiz is on all of its topics.
 */
function namesOf(plan: readonly CompiledTopic[], language: CompiledLocale): string {
  return plan.map((topic) => topic.text.name).join(language.data.list.separator);
}
