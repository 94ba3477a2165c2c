/**
 * The teaching evals' scorecard: judged turns per language and per case kind, each MRBench dimension as a
 * column (the share of turns it applies to that pass), the failing dialogues with what Astro said, and the
 * thresholds CI holds the offline tutor to (docs/testing.md, "Teaching evals").
 */
import type { Locale } from '#contract/languages';
import type { Expect, Kind } from './cases';
import {
  DIMENSION_HEADS,
  DIMENSIONS,
  DIMENSION_LABELS,
  type Dimension,
  type ReplyCheck,
  type TurnScore,
} from './score';

/** Kinds that must all pass: praising a misconception is the worst thing a tutor can do. */
export const EVERY_TURN_KINDS: readonly Kind[] = ['misconception', 'negation', 'both'];
/** The share of all judged turns that must pass. */
export const OVERALL_THRESHOLD = 0.95;

export type ResultTurn = {
  readonly learner: string;
  readonly expect: Expect;
  readonly reply: string;
  readonly check?: ReplyCheck;
  readonly error?: string;
  readonly score: TurnScore;
};

/**
 * One played dialogue (JSON: it travels in the test's meta to the reporter). The transcript is every turn
 * in order; a learner turn with an expectation points at its scored turn.
 */
export type DialogueResult = {
  readonly language: Locale;
  readonly id: string;
  readonly kind: Kind;
  readonly note?: string;
  readonly transcript: {
    readonly speaker: 'astro' | 'learner';
    readonly text: string;
    readonly scored?: number;
  }[];
  readonly turns: ResultTurn[];
};

export interface Tally {
  readonly turns: number;
  readonly passed: number;
  readonly dimensions: Readonly<Record<Dimension, { readonly applicable: number; readonly passed: number }>>;
}

function emptyTally(): {
  turns: number;
  passed: number;
  dimensions: Record<Dimension, { applicable: number; passed: number }>;
} {
  return {
    turns: 0,
    passed: 0,
    dimensions: Object.fromEntries(DIMENSIONS.map((d) => [d, { applicable: 0, passed: 0 }])) as Record<
      Dimension,
      { applicable: number; passed: number }
    >,
  };
}

/** Counts the judged turns of the dialogues. */
export function tally(results: readonly DialogueResult[]): Tally {
  const total = emptyTally();
  for (const result of results)
    for (const turn of result.turns) {
      total.turns += 1;
      if (turn.score.passed) total.passed += 1;
      for (const dimension of DIMENSIONS) {
        const verdict = turn.score.dimensions[dimension];
        if (verdict === 'n/a') continue;
        total.dimensions[dimension].applicable += 1;
        if (verdict === 'pass') total.dimensions[dimension].passed += 1;
      }
    }
  return total;
}

const share = (passed: number, of: number) => (of === 0 ? 1 : passed / of);
const percent = (passed: number, of: number) => (of === 0 ? '–' : `${(100 * share(passed, of)).toFixed(1)}%`);

/** What falls short of the thresholds, in words; empty when the scorecard passes. */
export function shortfalls(results: readonly DialogueResult[]): string[] {
  const problems: string[] = [];
  for (const kind of EVERY_TURN_KINDS) {
    const of = tally(results.filter((result) => result.kind === kind));
    if (of.passed < of.turns)
      problems.push(`${kind}: ${of.passed} of ${of.turns} turns pass; every one must`);
  }
  const overall = tally(results);
  if (share(overall.passed, overall.turns) < OVERALL_THRESHOLD)
    problems.push(
      `overall: ${percent(overall.passed, overall.turns)} of ${overall.turns} turns pass; at least ${100 * OVERALL_THRESHOLD}% must`,
    );
  return problems;
}

function row(name: string, of: Tally, note = ''): string {
  const cells = [
    name.padEnd(16),
    String(of.turns).padStart(5),
    percent(of.passed, of.turns).padStart(7),
    ...DIMENSIONS.map((d) => percent(of.dimensions[d].passed, of.dimensions[d].applicable).padStart(9)),
  ];
  return `${cells.join(' ')}${note}`;
}

function table(title: string, groups: readonly [string, readonly DialogueResult[], string?][]): string[] {
  const head = [
    title.padEnd(16),
    'Turns'.padStart(5),
    'Pass'.padStart(7),
    ...DIMENSIONS.map((d) => DIMENSION_HEADS[d].padStart(9)),
  ].join(' ');
  return [
    head,
    ...groups.filter(([, of]) => of.length > 0).map(([name, of, note]) => row(name, tally(of), note ?? '')),
  ];
}

function describeCheck(check: ReplyCheck | undefined): string {
  if (check === undefined) return 'no check';
  if (check.type === 'question') return 'check: question';
  return `check: answer, correct ${String(check.correct)}${check.openQuestion ? ', openQuestion' : ''}`;
}

/** The failing dialogues, each with the whole exchange and why each failing turn failed. */
function failures(results: readonly DialogueResult[]): string[] {
  const failing = results.filter((result) => result.turns.some((turn) => !turn.score.passed));
  if (failing.length === 0) return ['No failing dialogues.'];
  const lines = [`Failing dialogues (${failing.length}):`];
  for (const result of failing) {
    lines.push(
      '',
      `${result.language} ${result.id} (${result.kind})${result.note ? `: ${result.note}` : ''}`,
    );
    for (const said of result.transcript) {
      const turn = said.scored === undefined ? undefined : result.turns[said.scored];
      lines.push(
        said.speaker === 'astro'
          ? `  Astro:   ${said.text}`
          : `  Learner: ${said.text}${turn ? `   [expected: ${turn.expect}]` : ''}`,
      );
      if (!turn || turn.score.passed) continue;
      lines.push(`           ✗ ${describeCheck(turn.check)}${turn.error ? `; error ${turn.error}` : ''}`);
      for (const dimension of DIMENSIONS)
        if (turn.score.dimensions[dimension] === 'fail')
          lines.push(`           ✗ ${DIMENSION_LABELS[dimension]}`);
      for (const reason of turn.score.reasons) lines.push(`             - ${reason}`);
    }
  }
  return lines;
}

/** The whole scorecard as printed by `npm run eval`. */
export function formatScorecard(
  title: string,
  results: readonly DialogueResult[],
  kinds: readonly Kind[],
): string {
  const languages = [...new Set(results.map((result) => result.language))];
  const problems = shortfalls(results);
  const lines = [
    title,
    '',
    `Columns: share of judged turns passing; then, per MRBench dimension, the share of the turns it applies to: ${DIMENSIONS.map((d) => `${DIMENSION_HEADS[d]} = ${DIMENSION_LABELS[d]}`).join('; ')}.`,
    '',
    ...table(
      'By language',
      languages.map((language) => [language, results.filter((result) => result.language === language)]),
    ),
    '',
    ...table(
      'By case kind',
      kinds.map((kind) => [
        kind,
        results.filter((result) => result.kind === kind),
        EVERY_TURN_KINDS.includes(kind) ? '   (every turn must pass)' : '',
      ]),
    ),
    '',
    ...table('Overall', [['all', results, `   (at least ${100 * OVERALL_THRESHOLD}% must pass)`]]),
    '',
    problems.length === 0 ? 'Thresholds met.' : `Below the thresholds: ${problems.join('; ')}.`,
    '',
    ...failures(results),
  ];
  return lines.join('\n');
}
