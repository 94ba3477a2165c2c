/**
 * How a model reports checks for understanding (docs/behaviour.md §17.2): two tools beside
 * `show_picture`, never read from the reply's prose. `check_answer({correct})` when the reply judges the
 * learner's answer to Astro's previous check question; `ask_check_question()` when the reply ends with a
 * new check question. Two narrow tools rather than one with a `kind` field: why in docs/design-notes.md.
 */
import type { Check } from '../contract/teaching';

export const CHECK_ANSWER_TOOL = {
  name: 'check_answer',
  description:
    "Call this when the learner's message answers the check question you asked in your previous reply: " +
    'correct true when their answer is right (or right in substance), false when it is wrong, partly wrong ' +
    'or they do not know. An answer is right only when it names the right answer, names no wrong option ' +
    'and does not negate the right one: "a planet, not a star" and "not a star" are wrong; "I think a ' +
    'star?" is right. Do not call it when the learner names both options (ask them to pick one), asks ' +
    'what something means or why, says they do not understand, or asks a question of their own: those ' +
    'are not answers and use no try. Never call it with correct true twice for the same question in one ' +
    'conversation. Call it at most once per reply, and still give your spoken reply.',
  inputSchema: {
    type: 'object',
    properties: {
      correct: { type: 'boolean', description: "Whether the learner's answer is right." },
    },
    required: ['correct'],
  },
};

export const ASK_CHECK_QUESTION_TOOL = {
  name: 'ask_check_question',
  description:
    "Call this when your reply ends with ONE short question that checks the learner's understanding of " +
    'what you just explained (not when you only invite their next question), including the same question ' +
    'asked again after a hint, an explanation or an answer to their own question. When the reply also ' +
    'judges their answer, call check_answer as well. It takes no input; still give your spoken reply, ' +
    'with the question as its last sentence.',
  inputSchema: { type: 'object', properties: {} },
};

/** Told to the model after a reply that only reported a check, so that it goes on to speak. */
export const CHECK_NOTED = 'Noted. Now give your spoken reply.';

/** A tool call as either provider hands it over: its name and its parsed input (undefined if unreadable). */
export interface ToolCallSeen {
  readonly name: string;
  readonly input: unknown;
}

/**
 * What a reply's tool calls say about checks. A reply that judges the learner's answer and also asks a
 * check question ("Not quite… Is the Sun a planet or a star?", "Right! Next: …") carries the judgement
 * with `openQuestion: true`, so the app both counts the star and waits for the next answer
 * (docs/behaviour.md §17.2, §17.5). Invalid input leaves the judgement out.
 */
export function checkOf(calls: readonly ToolCallSeen[]): Check | undefined {
  const judged = calls
    .filter((call) => call.name === CHECK_ANSWER_TOOL.name)
    .map((call) => correctOf(call.input))
    .find((correct) => correct !== undefined);
  const asks = calls.some((call) => call.name === ASK_CHECK_QUESTION_TOOL.name);
  if (judged !== undefined)
    return { type: 'answer', correct: judged, ...(asks ? { openQuestion: true } : {}) };
  return asks ? { type: 'question' } : undefined;
}

/** Reads `{correct: boolean}`; anything else (a string "true", a missing field) counts as no judgement. */
function correctOf(input: unknown): boolean | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const correct = (input as { correct?: unknown }).correct;
  return typeof correct === 'boolean' ? correct : undefined;
}

/** Parses a tool call's JSON arguments; unreadable arguments are `undefined`, never an error. */
export function parseToolInput(json: string | null | undefined): unknown {
  if (json === null || json === undefined || json.trim() === '') return {};
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return undefined;
  }
}
