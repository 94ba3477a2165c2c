/**
 * The eval's scoring (test/eval/runner/score.ts): each MRBench dimension fails the replies a teacher
 * would fault, and passes the ones a teacher would accept.
 */
import { describe, expect, it } from 'vitest';
import { scoreTurn, type ScoredTurn } from './score';

const QUESTION = 'Is the Sun a planet or a star?';
const turn = (overrides: Partial<ScoredTurn> & Pick<ScoredTurn, 'expect' | 'reply'>): ScoredTurn => ({
  language: 'en-US',
  previousAstro: QUESTION,
  ...overrides,
});
const HINT_AGAIN = `Not quite. Planets only reflect light, while the Sun makes its own. ${QUESTION}`;

describe('Mistake identification', () => {
  it('fails a reply that praises a misconception through its check', () => {
    const score = scoreTurn(
      turn({ expect: 'wrong', reply: { text: 'That is it!', check: { type: 'answer', correct: true } } }),
    );
    expect(score.dimensions.mistakeIdentification).toBe('fail');
    expect(score.passed).toBe(false);
  });

  it('fails a reply that judges it wrong but praises it in words', () => {
    const score = scoreTurn(
      turn({
        expect: 'wrong',
        reply: {
          text: `Well done! ${QUESTION}`,
          check: { type: 'answer', correct: false, openQuestion: true },
        },
      }),
    );
    expect(score.dimensions.mistakeIdentification).toBe('fail');
    expect(score.reasons.join(' ')).toContain('well done');
  });

  it('passes a wrong answer judged wrong with a hint and the question again', () => {
    const score = scoreTurn(
      turn({
        expect: 'wrong',
        reply: { text: HINT_AGAIN, check: { type: 'answer', correct: false, openQuestion: true } },
      }),
    );
    expect(score.dimensions).toEqual({
      mistakeIdentification: 'pass',
      mistakeLocation: 'n/a',
      revealing: 'pass',
      actionability: 'pass',
      tone: 'pass',
    });
    expect(score.passed).toBe(true);
  });

  it('fails a clarifying question judged as a wrong answer', () => {
    const score = scoreTurn(
      turn({ expect: 'explain', reply: { text: HINT_AGAIN, check: { type: 'answer', correct: false } } }),
    );
    expect(score.dimensions.mistakeIdentification).toBe('fail');
  });

  it('fails a right answer not judged right, and a learner question judged at all', () => {
    expect(
      scoreTurn(turn({ expect: 'right', reply: { text: 'Stars are hot.', check: { type: 'question' } } }))
        .dimensions.mistakeIdentification,
    ).toBe('fail');
    expect(
      scoreTurn(
        turn({
          expect: 'answer',
          reply: { text: 'Stars twinkle because…', check: { type: 'answer', correct: false } },
        }),
      ).dimensions.mistakeIdentification,
    ).toBe('fail');
    expect(
      scoreTurn(turn({ expect: 'answer', reply: { text: 'Stars twinkle because of air.' } })).dimensions
        .mistakeIdentification,
    ).toBe('pass');
  });

  it('lets only a right answer be praised', () => {
    const score = scoreTurn(
      turn({
        expect: 'right',
        reply: { text: "That's right, well done!", check: { type: 'answer', correct: true } },
      }),
    );
    expect(score.passed).toBe(true);
  });
});

describe('Mistake location (targeted guidance)', () => {
  it('fails a hint that speaks of none of the words the mistake calls for', () => {
    const score = scoreTurn(
      turn({
        expect: 'wrong',
        about: ['light', 'shine'],
        reply: {
          text: `Not quite. Think again. ${QUESTION}`,
          check: { type: 'answer', correct: false, openQuestion: true },
        },
      }),
    );
    expect(score.dimensions.mistakeLocation).toBe('fail');
  });

  it('passes one that does, matched at the start of a word and without accents or case', () => {
    const score = scoreTurn(
      turn({
        expect: 'wrong',
        about: ['light'],
        reply: {
          text: HINT_AGAIN.toUpperCase(),
          check: { type: 'answer', correct: false, openQuestion: true },
        },
      }),
    );
    expect(score.dimensions.mistakeLocation).toBe('pass');
  });

  it('fails an explanation that is only the question again, or word for word what was said', () => {
    expect(
      scoreTurn(turn({ expect: 'explain', reply: { text: QUESTION, check: { type: 'question' } } }))
        .dimensions.mistakeLocation,
    ).toBe('fail');
    expect(
      scoreTurn(
        turn({
          expect: 'explain',
          previousAstro: `The Sun is a giant ball of gas. ${QUESTION}`,
          reply: { text: `The Sun is a giant ball of gas. ${QUESTION}`, check: { type: 'question' } },
        }),
      ).dimensions.mistakeLocation,
    ).toBe('fail');
    expect(
      scoreTurn(
        turn({
          expect: 'explain',
          reply: {
            text: `Let me say it another way: it glows like a campfire. ${QUESTION}`,
            check: { type: 'question' },
          },
        }),
      ).dimensions.mistakeLocation,
    ).toBe('pass');
  });
});

describe('Answer not revealed too early', () => {
  it('fails a first wrong try answered with the answer', () => {
    const score = scoreTurn(
      turn({
        expect: 'wrong',
        never: ['the sun is a star'],
        reply: {
          text: `Not quite: the Sun is a star. ${QUESTION}`,
          check: { type: 'answer', correct: false, openQuestion: true },
        },
      }),
    );
    expect(score.dimensions.revealing).toBe('fail');
  });

  it('fails a second wrong try that asks the same question a third time instead of answering', () => {
    const score = scoreTurn(
      turn({
        expect: 'reveal',
        previousAstro: HINT_AGAIN,
        reply: { text: HINT_AGAIN, check: { type: 'answer', correct: false } },
      }),
    );
    expect(score.dimensions.revealing).toBe('fail');
    expect(
      scoreTurn(
        turn({
          expect: 'reveal',
          previousAstro: HINT_AGAIN,
          reply: { text: 'Good try! The Sun is a star.', check: { type: 'answer', correct: false } },
        }),
      ).dimensions.revealing,
    ).toBe('pass');
  });
});

describe('Actionability', () => {
  it('fails a reply after a miss that does not end with a question', () => {
    const score = scoreTurn(
      turn({
        expect: 'hint',
        reply: { text: 'Not quite. It makes its own light.', check: { type: 'answer', correct: false } },
      }),
    );
    expect(score.dimensions.actionability).toBe('fail');
  });

  it('fails a judgement that asks again without saying the question is open', () => {
    const score = scoreTurn(
      turn({ expect: 'wrong', reply: { text: HINT_AGAIN, check: { type: 'answer', correct: false } } }),
    );
    expect(score.dimensions.actionability).toBe('fail');
    expect(score.reasons.join(' ')).toContain('openQuestion');
  });

  it('reads a question mark in every script, with closing quotes after it', () => {
    for (const text of ['太陽は惑星ですか？', 'هل الشمس نجم؟', 'Is it "a star?"'])
      expect(
        scoreTurn(turn({ expect: 'question', reply: { text, check: { type: 'question' } } })).dimensions
          .actionability,
      ).toBe('pass');
  });
});

describe('Tone', () => {
  it('fails a blunt verdict after a miss, in the conversation’s language', () => {
    const english = scoreTurn(
      turn({
        expect: 'wrong',
        reply: { text: `Wrong. ${QUESTION}`, check: { type: 'answer', correct: false, openQuestion: true } },
      }),
    );
    expect(english.dimensions.tone).toBe('fail');
    const german = scoreTurn(
      turn({
        language: 'de-DE',
        expect: 'hint',
        reply: {
          text: 'Das ist falsch. Ist die Sonne ein Planet oder ein Stern?',
          check: { type: 'answer', correct: false, openQuestion: true },
        },
      }),
    );
    expect(german.dimensions.tone).toBe('fail');
  });

  it('fails an empty reply', () => {
    expect(scoreTurn(turn({ expect: 'answer', reply: { text: '' } })).dimensions.tone).toBe('fail');
  });
});
