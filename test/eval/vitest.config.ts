import { defineConfig } from 'vitest/config';
import unit from '../../vitest.config';

// `npm run eval`: the teaching evals (test/eval/README.md, docs/testing.md "Teaching evals"). The
// dialogues are played through the real chat handler in one process; the scorecard reporter prints the
// scorecards after vitest's own lines. The deadlines are a real model's (several requests a dialogue).
// The unit config's projects (unit, and gc with --expose-gc) are left out: one plain run of the evals.
const { projects: _projects, ...shared } = unit.test ?? {};

export default defineConfig({
  test: {
    ...shared,
    include: ['test/eval/**/*.eval.ts'],
    exclude: ['node_modules/**'],
    testTimeout: 180_000,
    // Both files in one worker, one after the other: the handler, the lessons and the case files load
    // once (two workers each loaded them, for twice the CPU and no less time on two cores).
    maxWorkers: 1,
    isolate: false,
    reporters: ['default', './test/eval/runner/scorecard-reporter.ts'],
  },
});
