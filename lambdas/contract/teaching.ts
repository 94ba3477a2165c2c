/**
 * Teaching (docs/behaviour.md §17): the learner's level and the machine-readable note a reply carries when
 * it asks or judges a check for understanding. Plain data: imported by both the Lambdas and the web app.
 */

/** Young explorer (8–11), Teen (12–15), Adult. */
export const LEVELS = ['child', 'teen', 'adult'] as const;
export type Level = (typeof LEVELS)[number];

/** The level a new learner starts on (the selector's first value, and the tutor's when none is sent). */
export const DEFAULT_LEVEL: Level = 'teen';

/**
 * What a reply says about checks for understanding (docs/behaviour.md §17.2): it ends with a check
 * `question`, or it judges the learner's `answer` to the previous check question. A judgement whose reply
 * also ends with a check question (the hint and the question again, a quiz's next question) says so with
 * `openQuestion: true`, so the app gives think time only while a question is really open (§17.5); a
 * judgement ending with an offer, the answer or a quiz's score has none.
 */
export type Check =
  | { readonly type: 'question' }
  | { readonly type: 'answer'; readonly correct: boolean; readonly openQuestion?: true };
