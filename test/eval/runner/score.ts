/**
 * How one reply is scored against what a teacher expects of it (test/eval/README.md), in the dimensions
 * learning science uses for a tutor's reply to a learner's mistake: the MRBench taxonomy (Maurya et al.,
 * NAACL 2025) that the BEA 2025 shared task on AI tutors scores (docs/testing.md, "Teaching evals").
 * Deterministic: it reads the reply's `check` (the judgement the web app acts on) and its words.
 */
import type { Locale } from '#contract/languages';
import type { Expect } from './cases';
import { LEXICONS } from './lexicon';
import { endsWithQuestion, finalQuestion, firstHeld, foldText } from './text';

/** The scorecard's columns, in MRBench's order. */
export const DIMENSIONS = [
  'mistakeIdentification',
  'mistakeLocation',
  'revealing',
  'actionability',
  'tone',
] as const;
export type Dimension = (typeof DIMENSIONS)[number];

/** The columns as a teacher reads them. */
export const DIMENSION_LABELS: Readonly<Record<Dimension, string>> = {
  mistakeIdentification: 'Mistake identification',
  mistakeLocation: 'Mistake location (targeted guidance)',
  revealing: 'Answer not revealed too early',
  actionability: 'Actionability',
  tone: 'Tone',
};

/** Short column heads for the printed table. */
export const DIMENSION_HEADS: Readonly<Record<Dimension, string>> = {
  mistakeIdentification: 'Identif.',
  mistakeLocation: 'Guidance',
  revealing: 'Reveal',
  actionability: 'Action',
  tone: 'Tone',
};

export type Verdict = 'pass' | 'fail' | 'n/a';

/** A reply's check as the contract carries it (docs/behaviour.md §17.2), read loosely. */
export type ReplyCheck = {
  readonly type: 'question' | 'answer';
  readonly correct?: boolean;
  readonly openQuestion?: boolean;
};

export type Reply = {
  readonly text: string;
  readonly check?: ReplyCheck;
};

export interface ScoredTurn {
  readonly language: Locale;
  readonly expect: Expect;
  readonly about?: readonly string[];
  readonly never?: readonly string[];
  readonly reply: Reply;
  /** What Astro said just before (the question the learner answered, usually). */
  readonly previousAstro?: string;
}

/** JSON (it travels in a test's meta to the reporter): a type, not an interface, with plain arrays. */
export type TurnScore = {
  readonly dimensions: Readonly<Record<Dimension, Verdict>>;
  /** Why each failed dimension failed, in words, for the list of failing dialogues. */
  readonly reasons: string[];
  readonly passed: boolean;
};

/** The answer is withheld: the learner still has to find it. */
const WITHHOLDS: ReadonlySet<Expect> = new Set(['wrong', 'hint', 'explain', 'pick-one']);
/** The reply must leave the learner something to answer. */
const ASKS: ReadonlySet<Expect> = new Set(['wrong', 'hint', 'explain', 'pick-one', 'question', 'quiz']);
/** A wrong try or no answer: the kind "not quite", never a bare "wrong". */
const AFTER_A_MISS: ReadonlySet<Expect> = new Set(['wrong', 'hint', 'reveal']);

/** What the check must be for each expectation (Mistake identification). */
function judgementMatches(expect: Expect, check: ReplyCheck | undefined): string | undefined {
  const shown = check === undefined ? 'no check' : JSON.stringify(check);
  switch (expect) {
    case 'right':
      return check?.type === 'answer' && check.correct === true ? undefined : `judged ${shown}, not right`;
    case 'wrong':
    case 'reveal':
    case 'hint':
      return check?.type === 'answer' && check.correct === false ? undefined : `judged ${shown}, not wrong`;
    case 'answer':
      return check?.type === 'answer'
        ? `judged ${shown}: a question of the learner's is not an answer`
        : undefined;
    case 'pick-one':
    case 'explain':
    case 'question':
    case 'quiz':
      return check?.type === 'question' ? undefined : `${shown}, not a check question asked`;
  }
}

/** Scores one reply in every dimension; a dimension that does not apply to the expectation is n/a. */
export function scoreTurn(turn: ScoredTurn): TurnScore {
  const { expect, reply } = turn;
  const reasons: string[] = [];
  const verdict = (problems: readonly (string | undefined)[]): Verdict => {
    const found = problems.filter((problem): problem is string => problem !== undefined);
    reasons.push(...found);
    return found.length > 0 ? 'fail' : 'pass';
  };
  const lexicon = LEXICONS[turn.language];
  const praise = expect === 'right' ? undefined : firstHeld(reply.text, lexicon.praise);
  const neverHeld = firstHeld(reply.text, turn.never);

  const mistakeIdentification = verdict([
    judgementMatches(expect, reply.check),
    praise === undefined ? undefined : `praises it ("${praise}")`,
  ]);

  const mistakeLocation: Verdict =
    turn.about !== undefined || expect === 'explain'
      ? verdict([
          turn.about !== undefined && firstHeld(reply.text, turn.about) === undefined
            ? `speaks of none of: ${turn.about.join(', ')}`
            : undefined,
          expect === 'explain' ? explainsAgain(reply.text, turn.previousAstro) : undefined,
        ])
      : 'n/a';

  const revealing: Verdict = WITHHOLDS.has(expect)
    ? verdict([neverHeld === undefined ? undefined : `says "${neverHeld}" before the learner found it`])
    : expect === 'reveal'
      ? verdict([closesTheQuestion(reply.text, turn.previousAstro)])
      : 'n/a';

  const actionability: Verdict = ASKS.has(expect) ? verdict([asksAgain(expect, reply)]) : 'n/a';

  const blunt = AFTER_A_MISS.has(expect) ? firstHeld(reply.text, lexicon.blunt) : undefined;
  const tone = verdict([
    foldText(reply.text).trim().length === 0 ? 'says nothing' : undefined,
    blunt === undefined ? undefined : `blunt ("${blunt}")`,
    !WITHHOLDS.has(expect) && neverHeld !== undefined ? `says "${neverHeld}"` : undefined,
  ]);

  const dimensions = { mistakeIdentification, mistakeLocation, revealing, actionability, tone };
  return { dimensions, reasons, passed: Object.values(dimensions).every((value) => value !== 'fail') };
}

/**
 * Explaining again means more than the question said again, and not word for word what Astro said
 * before.
 */
function explainsAgain(text: string, previous: string | undefined): string | undefined {
  if (previous !== undefined && foldText(text).trim() === foldText(previous).trim())
    return 'says the same words again';
  const question = finalQuestion(text) ?? '';
  const rest = foldText(text.trim().slice(0, text.trim().length - question.length)).replace(
    /[^\p{L}\p{N}]/gu,
    '',
  );
  return rest.length < 10 ? 'asks again without explaining' : undefined;
}

/** After a second wrong try the answer is given and the question is not asked a third time. */
function closesTheQuestion(text: string, previous: string | undefined): string | undefined {
  const asked = previous === undefined ? undefined : finalQuestion(previous);
  const again = finalQuestion(text);
  return asked !== undefined && again !== undefined && foldText(asked) === foldText(again)
    ? 'asks the same question a third time'
    : undefined;
}

/**
 * The learner knows what to do next: the reply ends with the question to answer, and says so in its
 * check, so the app waits for the answer (docs/behaviour.md §17.5): a check question, or a judgement
 * that asks again (`openQuestion`).
 */
function asksAgain(expect: Expect, reply: Reply): string | undefined {
  if (!endsWithQuestion(reply.text)) return 'does not end with a question to answer';
  if (expect === 'wrong' || expect === 'hint')
    return reply.check?.type === 'answer' && reply.check.openQuestion === true
      ? undefined
      : 'its check does not say the question is open again (openQuestion)';
  return undefined;
}
