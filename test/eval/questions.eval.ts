/**
 * `npm run eval`, the learner-questions suite: each question of `questions/<locale>.yaml` asked of the
 * configured tutor through the real `/api/chat` handler, as the opening question of a conversation. Its
 * scorecard is printed beside the judging one. A miss is recorded, not thrown; the suite fails when fewer
 * than QUESTIONS_THRESHOLD of all the questions are answered (docs/testing.md, "Teaching evals").
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createHarness, describeEval } from 'vitest-evals';
import type { Locale } from '#contract/languages';
import type { Question } from './runner/cases';
import { playDialogue } from './runner/play';
import { questionShortfalls, scoreQuestion, type QuestionResult } from './runner/questions-scorecard';
import { caseSets, evalChatHandler } from './runner/setup';

declare module 'vitest' {
  interface TaskMeta {
    /** The asked, scored question, for the scorecard reporter. */
    astroQuestion?: QuestionResult;
  }
}

const { questions } = caseSets();
const handler = evalChatHandler();
const results: QuestionResult[] = [];

const harness = createHarness<{ language: Locale; question: Question }, QuestionResult>({
  name: 'astro-chat',
  run: async ({ input: { language, question } }) => {
    const [played] = await playDialogue(
      handler,
      {
        id: question.id,
        kind: 'right',
        ...(question.level === undefined ? {} : { level: question.level }),
        turns: [{ learner: question.ask }],
      },
      language,
    );
    const output = scoreQuestion(language, question, played?.reply.text ?? '', played?.error);
    return {
      output,
      events: [
        { type: 'message' as const, role: 'user' as const, content: question.ask },
        { type: 'message' as const, role: 'assistant' as const, content: output.reply },
      ],
    };
  },
});

if (questions.length === 0)
  describe('learner questions', () => {
    it.skip('no questions/<locale>.yaml yet', () => undefined);
  });

for (const file of questions) {
  describeEval(`${file.language} questions`, { harness, judgeThreshold: null }, (it) => {
    it.for(file.questions)('$id', async (question, { run, task }) => {
      const asked = await run({ language: file.language, question });
      task.meta.astroQuestion = asked.output;
      results.push(asked.output);
    });
  });
}

afterAll(() => {
  if (questions.length === 0) return;
  expect(questionShortfalls(results), 'enough learner questions are answered').toEqual([]);
});
