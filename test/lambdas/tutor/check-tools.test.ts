import { describe, expect, it } from 'vitest';
import { checkOf, parseToolInput } from '#lambdas/tutor/check-tools';

describe('the check a reply reports through its tool calls (docs/behaviour.md §17.2)', () => {
  it('reads check_answer({correct}) as a judged answer', () => {
    expect(checkOf([{ name: 'check_answer', input: { correct: true } }])).toEqual({
      type: 'answer',
      correct: true,
    });
    expect(checkOf([{ name: 'check_answer', input: { correct: false } }])).toEqual({
      type: 'answer',
      correct: false,
    });
  });

  it('reads ask_check_question() as a check question, whatever its input', () => {
    expect(checkOf([{ name: 'ask_check_question', input: {} }])).toEqual({ type: 'question' });
    expect(checkOf([{ name: 'ask_check_question', input: undefined }])).toEqual({ type: 'question' });
  });

  it('carries the judgement of a reply that also asks a question, saying the question is open', () => {
    // docs/behaviour.md §17.2: "Not quite… Is the Sun a planet or a star?" or "Right! Next: …".
    expect(
      checkOf([
        { name: 'ask_check_question', input: {} },
        { name: 'check_answer', input: { correct: true } },
      ]),
    ).toEqual({ type: 'answer', correct: true, openQuestion: true });
    expect(
      checkOf([
        { name: 'check_answer', input: { correct: false } },
        { name: 'ask_check_question', input: {} },
      ]),
    ).toEqual({ type: 'answer', correct: false, openQuestion: true });
    // A question asked beside a judgement that cannot be read is just a question.
    expect(
      checkOf([
        { name: 'check_answer', input: { correct: 'yes' } },
        { name: 'ask_check_question', input: {} },
      ]),
    ).toEqual({ type: 'question' });
  });

  it('ignores check_answer input that is not {correct: boolean}, and other tools', () => {
    for (const input of [undefined, null, 'true', {}, { correct: 'true' }, { correct: 1 }]) {
      expect(checkOf([{ name: 'check_answer', input }])).toBeUndefined();
    }
    expect(checkOf([{ name: 'show_picture', input: { prompt: 'Saturn' } }])).toBeUndefined();
    // Only check_answer judges, whatever another tool's input holds.
    expect(checkOf([{ name: 'show_picture', input: { correct: true } }])).toBeUndefined();
    expect(checkOf([])).toBeUndefined();
    // The first readable judgement counts.
    expect(
      checkOf([
        { name: 'check_answer', input: { correct: 'no' } },
        { name: 'check_answer', input: { correct: false } },
      ]),
    ).toEqual({ type: 'answer', correct: false });
  });

  it('parses tool arguments without ever throwing', () => {
    expect(parseToolInput('{"correct":true}')).toEqual({ correct: true });
    expect(parseToolInput('')).toEqual({});
    expect(parseToolInput(null)).toEqual({});
    expect(parseToolInput(undefined)).toEqual({});
    expect(parseToolInput(' \n ')).toEqual({});
    expect(parseToolInput('{"correct": tr')).toBeUndefined();
  });
});
