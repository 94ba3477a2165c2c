/**
 * Prints the teaching evals' scorecards once every suite has run: read from the played dialogues each test
 * leaves in its meta, so the scorecard appears after vitest's own summary lines, whatever passed. Also
 * writes them to `test-results/eval/` (one text file per suite), to keep a run's scorecard beside the
 * browser tests' screenshots.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { KINDS } from './cases';
import { formatQuestionScorecard, type QuestionResult } from './questions-scorecard';
import { formatScorecard, type DialogueResult } from './scorecard';
import { tutorName } from './setup';

const OUTPUT_FOLDER = join('test-results', 'eval');

export default class ScorecardReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const dialogues: DialogueResult[] = [];
    const questions: QuestionResult[] = [];
    for (const module of testModules)
      for (const test of module.children.allTests()) {
        const meta = test.meta();
        if (meta.astroDialogue) dialogues.push(meta.astroDialogue);
        if (meta.astroQuestion) questions.push(meta.astroQuestion);
      }
    const printed: [string, string][] = [];
    if (dialogues.length > 0)
      printed.push([
        'judging.txt',
        formatScorecard(`Teaching evals: judging dialogues, ${tutorName()}`, dialogues, KINDS),
      ]);
    if (questions.length > 0)
      printed.push([
        'questions.txt',
        formatQuestionScorecard(`Teaching evals: learner questions, ${tutorName()}`, questions),
      ]);
    if (printed.length === 0) return;
    mkdirSync(OUTPUT_FOLDER, { recursive: true });
    for (const [file, text] of printed) {
      writeFileSync(join(OUTPUT_FOLDER, file), `${text}\n`);
      process.stdout.write(`\n${text}\n`);
    }
  }
}
