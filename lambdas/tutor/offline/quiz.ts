/**
 * "Quiz me", offline (docs/behaviour.md §17.3): three check questions one at a time, then the score and a
 * recap. It asks about the topics this conversation taught, never first about the question just asked,
 * and teaches a topic (its lesson at the learner's level) right before asking about it when the
 * conversation has not. The server keeps no state: the quiz in progress is read back from Astro's turns in
 * the history (its opening names the quiz's topics and asks the first question; each later turn ends with
 * the question now open, and a right answer is marked by the "well done" sentence).
 */
import type { ChatTurn } from '../../contract/schemas';
import { LEVELS, type Level } from '../../contract/teaching';
import type { TutorReply } from '../tutor';
import {
  bestTopic,
  fill,
  joinSentences,
  lessonIn,
  lessonText,
  questionAtEnd,
  topicOfCheck,
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
  /** The topics the conversation has taught (a quiz teaches the others before asking). */
  readonly taught: ReadonlySet<string>;
}

/** Whether one of Astro's turns starts by saying the learner was right (a star, or a second right answer). */
export function isCorrectVerdict(turn: string, language: CompiledLocale): boolean {
  return turn.startsWith(language.data.checkCorrect) || turn.startsWith(language.data.checkCorrectAgain);
}

/** The words between the answer and the question in a reply answering another topic mid-check. */
function asideJoint(language: CompiledLocale): string {
  const [, rest = ''] = language.data.checkAside.split('{text}');
  return rest.split('{question}')[0] ?? '';
}

/**
 * A lesson that starts a new line of talk: a turn starting with a topic's lesson, other than one
 * answering a question about another topic while a check is open (it goes back to the open question).
 */
function isLessonTurn(turn: string, language: CompiledLocale): boolean {
  const lesson = lessonIn(turn, language);
  if (!lesson || lesson.stage !== 'explanation') return false;
  const { topic } = lesson;
  // A lesson starts with the level's explanation, or with the fact that answered the question (§15.11).
  const starts =
    LEVELS.some((level) => turn.startsWith(topic.levels[level].explanation)) ||
    topic.facts.some((fact) => LEVELS.some((level) => turn.startsWith(fact.text[level])));
  return starts && !turn.includes(asideJoint(language));
}

/** The question about `topic`, after its lesson when the conversation has not taught it. */
function ask(
  topic: CompiledTopic,
  taught: ReadonlySet<string>,
  level: Level,
  language: CompiledLocale,
): string {
  const { question } = topic.levels[level].check.text;
  return taught.has(topic.id) ? question : joinSentences(language, lessonText(topic, level), question);
}

/** The reply opening a quiz on `named` (and related topics) or on the topics of this conversation. */
export function startQuiz(
  message: string,
  named: CompiledTopic | undefined,
  history: readonly ChatTurn[],
  language: CompiledLocale,
  level: Level,
): TutorReply {
  const taught = discussed(history, language);
  const plan = planQuiz(message, named, taught, lastAsked(history, language, level), language);
  const first = plan[0];
  if (!first) throw new Error(`${language.data.locale}: a quiz needs topics`);
  return {
    response: fill(language.data.quizStart, {
      topics: namesOf(plan, language),
      question: ask(first, new Set(taught.map((topic) => topic.id)), level, language),
    }),
    check: { type: 'question' },
  };
}

/** The topic of the check question Astro asked last in the history, if any. */
function lastAsked(
  history: readonly ChatTurn[],
  language: CompiledLocale,
  level: Level,
): CompiledTopic | undefined {
  for (const turn of [...history].reverse())
    if (turn.role === 'assistant') {
      const asked = questionAtEnd(turn.content, language, level);
      if (asked) return topicOfCheck(asked, language);
    }
  return undefined;
}

/**
 * The quiz's topics: the named one, else the topics taught in this conversation (newest first), then
 * the topics each of those leads on to, then the most popular ones, until there are three. The question
 * just asked is never first.
 */
function planQuiz(
  message: string,
  named: CompiledTopic | undefined,
  taught: readonly CompiledTopic[],
  justAsked: CompiledTopic | undefined,
  language: CompiledLocale,
): CompiledTopic[] {
  const plan: CompiledTopic[] = [];
  const add = (topic: CompiledTopic | undefined) => {
    if (topic && plan.length < QUIZ_LENGTH && !plan.some((chosen) => chosen.id === topic.id))
      plan.push(topic);
  };
  if (named) add(named);
  else taught.filter((topic) => topic.id !== justAsked?.id).forEach(add);
  const favourites = language.topics.filter((topic) => topic.priority === 3);
  // With nothing to go on, a popular topic chosen by the message, so the same request gets the same quiz.
  if (plan.length === 0 && !justAsked) add(favourites[stableHash(message) % Math.max(favourites.length, 1)]);
  if (justAsked && taught.some((topic) => topic.id === justAsked.id)) add(justAsked);
  // The loop also visits the topics it adds, so each leads on to the next.
  for (const topic of plan) add(language.byId.get(topic.next));
  if (justAsked) add(language.byId.get(justAsked.next));
  favourites.forEach(add);
  language.topics.forEach(add);
  // The question just asked never opens the quiz.
  if (plan[0]?.id === justAsked?.id && plan.length > 1) plan.push(...plan.splice(0, 1));
  return plan;
}

/**
 * The topics of this conversation, newest first: those Astro taught (its turns holding a lesson text);
 * failing that (another tutor wrote the replies), those the learner named.
 */
export function discussed(history: readonly ChatTurn[], language: CompiledLocale): CompiledTopic[] {
  const newestFirst = [...history].reverse();
  const taught = newestFirst.flatMap((turn) => {
    const lesson = turn.role === 'assistant' ? lessonIn(turn.content, language) : undefined;
    return lesson ? [lesson.topic] : [];
  });
  const found =
    taught.length > 0
      ? taught
      : newestFirst.flatMap((turn) => {
          const topic =
            turn.role === 'user' ? bestTopic(turn.content, language, language.keywords) : undefined;
          return topic ? [topic] : [];
        });
  return found.filter((topic, index) => found.findIndex((other) => other.id === topic.id) === index);
}

/**
 * The quiz in progress, read from Astro's turns (oldest first): going back from the last turn, every turn
 * ends with a check question and starts no new lesson, until the quiz's opening; the questions go in the
 * plan's order, each asked once or more (after a hint, an explanation, an answer to another question).
 */
export function quizProgress(
  turns: readonly string[],
  language: CompiledLocale,
  level?: Level,
): QuizProgress | undefined {
  for (let start = turns.length - 1; start >= 0; start -= 1) {
    const turn = turns[start] ?? '';
    const plan = planIn(turn, language, level);
    if (plan) return progressFrom(plan, turns, start, language, level);
    if (isLessonTurn(turn, language)) return undefined;
  }
  return undefined;
}

function progressFrom(
  plan: readonly CompiledTopic[],
  turns: readonly string[],
  start: number,
  language: CompiledLocale,
  level?: Level,
): QuizProgress | undefined {
  let position = 0;
  let score = 0;
  for (const [index, turn] of turns.slice(start).entries()) {
    const asked = questionAtEnd(turn, language, level);
    const at = plan.findIndex((topic) => topic.id === asked?.topicId);
    if (at !== position && at !== position + 1) return undefined;
    if (index > 0 && isCorrectVerdict(turn, language)) score += 1;
    position = at;
  }
  const taught = new Set(
    turns.flatMap((turn) => {
      const lesson = lessonIn(turn, language);
      return lesson ? [lesson.topic.id] : [];
    }),
  );
  return { plan, position, score, taught };
}

/**
 * The quiz's topics, if `turn` is a quiz opening: the text around `{topics}` is the template's, the named
 * list is exactly how the quiz would list its topics, and the first of them asks the question that ends it
 * (after its lesson, when the quiz taught it first).
 */
function planIn(turn: string, language: CompiledLocale, level?: Level): CompiledTopic[] | undefined {
  const [before = '', rest = ''] = language.data.quizStart.split('{topics}');
  const between = rest.trimEnd().slice(0, -'{question}'.length);
  const asked = questionAtEnd(turn, language, level);
  const trimmed = turn.trimEnd();
  if (!asked || !trimmed.startsWith(before)) return undefined;
  const first = topicOfCheck(asked, language);
  const { question } = asked.text;
  const tails = [question, joinSentences(language, first.levels[asked.level].explanation, question)].map(
    (said) => `${between}${said}`,
  );
  const tail = tails.find((candidate) => trimmed.endsWith(candidate));
  if (tail === undefined) return undefined;
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
 * What follows the judgement of a quiz answer: the next question (after its lesson if the conversation
 * has not taught it), or after the last one the score and the recap.
 */
export function afterQuizAnswer(
  progress: QuizProgress,
  correct: boolean,
  language: CompiledLocale,
  level: Level,
): string {
  const { data } = language;
  const next = progress.plan[progress.position + 1];
  if (next) return fill(data.quizNext, { question: ask(next, progress.taught, level, language) });
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
