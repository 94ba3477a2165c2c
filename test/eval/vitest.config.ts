import { defineConfig } from 'vitest/config';
import unit from '../../vitest.config';

// `npm run eval`: the teaching evals (test/eval/README.md, docs/testing.md "Teaching evals"). The
// dialogues are played through the real chat handler in one process; the scorecard reporter prints the
// scorecards after vitest's own lines. The deadlines are a real model's (several requests a dialogue).
export default defineConfig({
  test: {
    ...unit.test,
    include: ['test/eval/**/*.eval.ts'],
    exclude: ['node_modules/**'],
    testTimeout: 180_000,
    reporters: ['default', './test/eval/runner/scorecard-reporter.ts'],
  },
});
