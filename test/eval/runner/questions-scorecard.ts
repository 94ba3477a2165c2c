/**
 * The learner-questions suite (`questions/<locale>.yaml`): does Astro answer what was asked? A reply
 * passes when it holds every key fact in one of its forms (test/eval/README.md). A question Astro should
 * decline passes when the reply says something and invites another question. Reported beside the judging
 * scorecard; CI requires at least QUESTIONS_THRESHOLD of the questions answered (docs/testing.md).
 */
import type { Locale } from '#contract/languages';
import { SHAPES, type Question } from './cases';
import { endsWithQuestion, firstHeld, foldText } from './text';

export type QuestionResult = {
  readonly language: Locale;
  readonly id: string;
  readonly shape: Question['shape'];
  readonly ask: string;
  readonly reply: string;
  readonly error?: string;
  /** The facts no form of which the reply holds, each by its first form. */
  readonly missing: string[];
  readonly passed: boolean;
};

/** The share of the learner questions that must be answered. */
export const QUESTIONS_THRESHOLD = 0.9;

/** What falls short of the threshold, in words; empty when enough questions are answered. */
export function questionShortfalls(results: readonly QuestionResult[]): string[] {
  const passed = results.filter((result) => result.passed).length;
  if (results.length > 0 && passed / results.length >= QUESTIONS_THRESHOLD) return [];
  const share = results.length === 0 ? '0' : ((100 * passed) / results.length).toFixed(1);
  return [
    `learner questions: ${share}% of ${results.length} answered; at least ${100 * QUESTIONS_THRESHOLD}% must be`,
  ];
}

/** Scores one reply to one question. */
export function scoreQuestion(
  language: Locale,
  question: Question,
  reply: string,
  error?: string,
): QuestionResult {
  const missing =
    question.shape === 'decline'
      ? []
      : (question.facts ?? [])
          .filter((forms) => firstHeld(reply, forms) === undefined)
          .map((forms) => forms[0] ?? '');
  const declined =
    question.shape !== 'decline' || (foldText(reply).trim().length > 0 && endsWithQuestion(reply));
  return {
    language,
    id: question.id,
    shape: question.shape,
    ask: question.ask,
    reply,
    ...(error === undefined ? {} : { error }),
    missing,
    passed: error === undefined && missing.length === 0 && declined,
  };
}

function line(name: string, of: readonly QuestionResult[]): string {
  const passed = of.filter((result) => result.passed).length;
  return `${name.padEnd(16)} ${String(of.length).padStart(9)} ${`${((100 * passed) / of.length).toFixed(1)}%`.padStart(9)}`;
}

export function formatQuestionScorecard(title: string, results: readonly QuestionResult[]): string {
  const languages = [...new Set(results.map((result) => result.language))];
  const head = (name: string) => `${name.padEnd(16)} ${'Questions'.padStart(9)} ${'Answered'.padStart(9)}`;
  const failing = results.filter((result) => !result.passed);
  return [
    title,
    '',
    'Answered: the reply holds every key fact (a question to decline: a kind reply that invites another).',
    '',
    head('By language'),
    ...languages.map((language) =>
      line(
        language,
        results.filter((result) => result.language === language),
      ),
    ),
    '',
    head('By shape'),
    ...SHAPES.flatMap((shape) => {
      const of = results.filter((result) => result.shape === shape);
      return of.length > 0 ? [line(shape, of)] : [];
    }),
    '',
    `${line('Overall', results)}   (at least ${100 * QUESTIONS_THRESHOLD}% must be answered)`,
    '',
    failing.length === 0 ? 'Every question answered.' : `Not answered (${failing.length}):`,
    ...failing.flatMap((result) => [
      '',
      `${result.language} ${result.id} (${result.shape}): ${result.ask}`,
      `  Astro: ${result.reply || `(no reply: ${result.error ?? 'empty'})`}`,
      ...(result.missing.length > 0 ? [`  missing: ${result.missing.join(', ')}`] : []),
    ]),
  ].join('\n');
}
