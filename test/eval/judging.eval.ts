/**
 * `npm run eval`, the judging suite: every dialogue of `judging/<locale>.yaml` played through the real
 * `/api/chat` handler against the configured tutor, scored turn by turn (test/eval/runner/score.ts).
 * Dialogues of the kinds where every turn must pass (misconception, negation, both) fail their own test;
 * the others are counted, and the suite fails when all judged turns together fall under the overall
 * threshold. The scorecard is printed by test/eval/runner/scorecard-reporter.ts.
 */
import { afterAll, expect } from 'vitest';
import { describeEval } from 'vitest-evals';
import { KINDS } from './runner/cases';
import { DIMENSION_JUDGES, dialogueHarness } from './runner/judging-suite';
import { EVERY_TURN_KINDS, shortfalls, type DialogueResult } from './runner/scorecard';
import { caseSets, evalChatHandler } from './runner/setup';

declare module 'vitest' {
  interface TaskMeta {
    /** The played, scored dialogue, for the scorecard reporter. */
    astroDialogue?: DialogueResult;
  }
}

const { judging } = caseSets();
if (judging.length === 0)
  throw new Error(
    'No judging case files (judging/<locale>.yaml) where ASTRO_EVAL_CASES points, or in test/eval.',
  );
const harness = dialogueHarness(evalChatHandler());
const results: DialogueResult[] = [];

for (const file of judging) {
  for (const kind of KINDS) {
    const dialogues = file.dialogues.filter((dialogue) => dialogue.kind === kind);
    if (dialogues.length === 0) continue;
    describeEval(
      `${file.language} ${kind}`,
      // The judges record each dimension's score; what fails a test is decided below, once the played
      // dialogue is recorded for the scorecard (a judge threshold would throw before that).
      { harness, judges: DIMENSION_JUDGES, judgeThreshold: null },
      (it) => {
        it.for(dialogues)('$id', async (dialogue, { run, task }) => {
          const { output } = await run({ language: file.language, dialogue });
          results.push(output);
          task.meta.astroDialogue = output;
          if (EVERY_TURN_KINDS.includes(kind))
            expect(
              output.turns
                .filter((turn) => !turn.score.passed)
                .map((turn) => `${turn.learner}: ${turn.score.reasons.join('; ')}`),
              'every turn of this kind passes',
            ).toEqual([]);
        });
      },
    );
  }
}

afterAll(() => {
  // An empty set is a mistake in the setup (a wrong ASTRO_EVAL_CASES), not a pass.
  expect(results.length, 'judging dialogues played').toBeGreaterThan(0);
  expect(shortfalls(results), 'the scorecard meets its thresholds').toEqual([]);
});
