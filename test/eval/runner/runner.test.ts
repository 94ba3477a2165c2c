/**
 * The eval runner's other parts: reading case files as a teacher writes them, matching words in replies,
 * the scorecard's thresholds, and a dialogue played through the real chat handler with the offline tutor.
 */
import { describe, expect, it } from 'vitest';
import { createChatHandler } from '#lambdas/chat/handler';
import { TRUST_ENV } from '#support/trust';
import { judgingFileSchema, parseCaseFile, questionsFileSchema } from './cases';
import { runDialogue } from './judging-suite';
import { questionShortfalls, scoreQuestion } from './questions-scorecard';
import { scoreTurn } from './score';
import { formatScorecard, shortfalls, type DialogueResult } from './scorecard';
import { finalQuestion, foldText, holdsPhrase } from './text';

describe('case files', () => {
  it('keeps every value the learner says as text: numbers, yes and no', () => {
    const file = parseCaseFile(
      'en-US.yaml',
      [
        'language: en-US',
        'dialogues:',
        '  - id: mercury-days',
        '    kind: right',
        '    turns:',
        '      - astro: How many days does Mercury take to go around the Sun?',
        '      - learner: 88',
        '        expect: right',
        '      - learner: no',
      ].join('\n'),
      judgingFileSchema,
    );
    expect(file.dialogues[0]?.turns.slice(1)).toEqual([
      { learner: '88', expect: 'right' },
      { learner: 'no' },
    ]);
  });

  it('names the file and field of a mistake: an unknown expectation, a misspelt key, a repeated id', () => {
    const dialogue = (id: string, extra: string) =>
      `  - id: ${id}\n    kind: wrong\n    turns:\n      - learner: a planet\n${extra}`;
    expect(() =>
      parseCaseFile(
        'en-US.yaml',
        `language: en-US\ndialogues:\n${dialogue('a', '        expect: nope\n')}`,
        judgingFileSchema,
      ),
    ).toThrow(/en-US\.yaml: dialogues\.0\.turns\.0/);
    expect(() =>
      parseCaseFile(
        'en-US.yaml',
        `language: en-US\ndialogues:\n${dialogue('a', '        expects: wrong\n')}`,
        judgingFileSchema,
      ),
    ).toThrow(/en-US\.yaml/);
    expect(() =>
      parseCaseFile(
        'en-US.yaml',
        `language: en-US\ndialogues:\n${dialogue('a', '')}${dialogue('a', '')}`,
        judgingFileSchema,
      ),
    ).toThrow(/duplicate id a/);
    expect(() => parseCaseFile('x.yaml', 'language: [', judgingFileSchema)).toThrow(/not valid YAML/);
  });

  it('reads a questions file with its facts', () => {
    const file = parseCaseFile(
      'en-US.yaml',
      "language: en-US\nquestions:\n  - id: moon-distance\n    ask: How far away is the Moon?\n    shape: how-far\n    facts:\n      - ['384400', '238900']\n",
      questionsFileSchema,
    );
    expect(file.questions[0]?.facts).toEqual([['384400', '238900']]);
  });
});

describe('matching words in a reply', () => {
  it('ignores case, accents and digit groups, and reads every script’s digits', () => {
    expect(holdsPhrase('It is 384,400 km away', '384400')).toBe(true);
    expect(holdsPhrase('Elle est à 384 400 km', '384400')).toBe(true);
    expect(holdsPhrase('يدور في ٨٨ يوما', '88')).toBe(true);
    expect(holdsPhrase('LA ESTRELLA MÁS CERCANA', 'mas cercana')).toBe(true);
    expect(foldText('3.5')).toBe('3.5');
  });

  it('finds a word at the start of a word, never inside one or inside a longer number', () => {
    expect(holdsPhrase('Stars shine', 'star')).toBe(true);
    expect(holdsPhrase('pass the mustard', 'star')).toBe(false);
    expect(holdsPhrase('it takes 188 days', '88')).toBe(false);
    expect(holdsPhrase('水星は約88日で一周します', '88')).toBe(true);
    expect(holdsPhrase('它是一颗恒星', '恒星')).toBe(true);
  });

  it('finds the final question of a reply', () => {
    expect(finalQuestion('Not quite. Is the Sun a planet or a star?')).toBe('Is the Sun a planet or a star?');
    expect(finalQuestion('The Sun is a star.')).toBeUndefined();
  });
});

describe('the scorecard', () => {
  const result = (kind: DialogueResult['kind'], passed: boolean): DialogueResult => ({
    language: 'en-US',
    id: `${kind}-${String(passed)}`,
    kind,
    transcript: [
      { speaker: 'astro', text: 'Is the Sun a planet or a star?' },
      { speaker: 'learner', text: 'a planet, not a star', scored: 0 },
      { speaker: 'astro', text: 'Well done!' },
    ],
    turns: [
      {
        learner: 'a planet, not a star',
        expect: 'wrong',
        reply: 'Well done!',
        score: scoreTurn({
          language: 'en-US',
          expect: passed ? 'right' : 'wrong',
          reply: { text: 'Well done!', check: { type: 'answer', correct: true } },
        }),
      },
    ],
  });

  it('requires every misconception, negation and both-options turn to pass', () => {
    expect(
      shortfalls([
        result('misconception', false),
        ...Array.from({ length: 40 }, () => result('right', true)),
      ]),
    ).toEqual(['misconception: 0 of 1 turns pass; every one must']);
  });

  it('requires 95 % of all turns, and passes at or above it', () => {
    const nineteen = Array.from({ length: 19 }, () => result('right', true));
    expect(shortfalls([...nineteen, result('wrong', false)])).toEqual([]);
    expect(shortfalls([...nineteen.slice(1), result('wrong', false), result('wrong', false)])).toHaveLength(
      1,
    );
  });

  it('lists each failing dialogue with what Astro said and why it fails', () => {
    const text = formatScorecard('Teaching evals', [result('misconception', false)], ['misconception']);
    expect(text).toContain('en-US misconception-false (misconception)');
    expect(text).toContain('Learner: a planet, not a star   [expected: wrong]');
    expect(text).toContain('✗ Mistake identification');
    expect(text).toContain('Below the thresholds');
  });
});

describe('the questions suite', () => {
  it('answers a question when every fact is there in one of its forms', () => {
    const question = {
      id: 'moon',
      ask: 'How far is the Moon?',
      shape: 'how-far' as const,
      facts: [['384400', '238900']],
    };
    expect(scoreQuestion('en-US', question, 'About 384,400 km.').passed).toBe(true);
    expect(scoreQuestion('en-US', question, 'Quite far.').missing).toEqual(['384400']);
  });

  it('falls short when fewer than nine questions in ten are answered, or none was asked', () => {
    const question = { id: 'moon', ask: 'How far is the Moon?', shape: 'how-far' as const, facts: [['384']] };
    const answered = scoreQuestion('en-US', question, 'About 384,000 km.');
    const missed = scoreQuestion('en-US', question, 'Quite far.');
    expect(questionShortfalls([...Array<typeof answered>(9).fill(answered), missed])).toEqual([]);
    expect(questionShortfalls([...Array<typeof answered>(8).fill(answered), missed, missed])[0]).toMatch(
      /80\.0% of 10 answered; at least 90% must be/,
    );
    expect(questionShortfalls([])).toHaveLength(1);
  });
});

describe('a dialogue played through the chat handler', () => {
  it('signs the scripted turns so the tutor reads them, and feeds each reply back', async () => {
    const handler = createChatHandler({ ...TRUST_ENV });
    const played = await runDialogue(handler, {
      language: 'en-US',
      dialogue: {
        id: 'sun-twice',
        kind: 'wrong',
        turns: [
          { astro: 'Is the Sun a planet or a star?' },
          { learner: 'i have no idea', expect: 'hint' },
          { learner: 'a star', expect: 'right' },
        ],
      },
    });
    // Judged at all only if the signed question reached the tutor; right only if its hint reply did too.
    expect(played.turns.map((turn) => turn.check)).toEqual([
      expect.objectContaining({ type: 'answer', correct: false }),
      expect.objectContaining({ type: 'answer', correct: true }),
    ]);
    expect(played.transcript.map((said) => said.speaker)).toEqual([
      'astro',
      'learner',
      'astro',
      'learner',
      'astro',
    ]);
  });
});
