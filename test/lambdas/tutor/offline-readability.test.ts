/**
 * Each level reads at its level (docs/behaviour.md §17.1): English child texts at Flesch–Kincaid grade 4 or
 * under, teen texts at grade 8 or under, measured per topic over everything the level says (explanation,
 * more, check, hints, answer and facts); Japanese child texts in kana or kanji taught by the end of year 4.
 */
import { describe, expect, it } from 'vitest';
import { loadKnowledge } from '#lambdas/tutor/offline/knowledge';
import type { LocalizedTopic } from '#lambdas/tutor/offline/knowledge-schema';
import { fleschKincaidGrade, kanjiBeyondYear4, syllables } from '#support/readability';

const knowledge = loadKnowledge();

/** Everything a level of a topic says to the learner. */
function levelTexts(topic: LocalizedTopic, level: 'child' | 'teen'): string[] {
  const lesson = topic.levels[level];
  return [
    lesson.explanation,
    lesson.more,
    lesson.check.question,
    lesson.check.hint,
    lesson.check.answer,
    ...lesson.check.mistakes.map((mistake) => mistake.hint),
    ...topic.facts.map((fact) => fact[level]),
  ];
}

describe('the measures', () => {
  it('counts syllables as vowel groups, silent final e aside', () => {
    expect(['Sun', 'planet', 'galaxy', 'made', 'telescope', 'gravity'].map(syllables)).toEqual([
      1, 2, 3, 1, 3, 3,
    ]);
  });

  it('grades short plain sentences low and long learned ones high', () => {
    expect(fleschKincaidGrade('The Sun is a star. It is hot. It gives us light.')).toBeLessThan(2);
    expect(
      fleschKincaidGrade(
        'Gravitational interactions between circumstellar protoplanetary material and the accreting ' +
          'protostar determine the subsequent evolutionary trajectory of planetary architectures.',
      ),
    ).toBeGreaterThan(16);
  });

  it('finds kanji beyond year 4, each once, and lets kana and year-1-to-4 kanji through', () => {
    expect(kanjiBeyondYear4('太陽は星です。うちゅうはひろい。')).toEqual([]);
    expect(kanjiBeyondYear4('宇宙と惑星と宇宙')).toEqual(['宇', '宙', '惑']);
  });
});

describe('English lessons read at their level', () => {
  const topics = Object.entries(knowledge.locales['en-US'].topics);

  it.each([
    ['child', 4],
    ['teen', 8],
  ] as const)('keeps every topic’s %s texts at Flesch–Kincaid grade %i or under', (level, most) => {
    for (const [id, topic] of topics) {
      const grade = Math.round(10 * fleschKincaidGrade(levelTexts(topic, level).join(' '))) / 10;
      expect({ id, level, under: grade <= most ? true : grade }).toEqual({ id, level, under: true });
    }
  });

  it('gives a child simpler texts than a teen on average', () => {
    const mean = (level: 'child' | 'teen') =>
      topics.reduce((sum, [, topic]) => sum + fleschKincaidGrade(levelTexts(topic, level).join(' ')), 0) /
      topics.length;
    expect(mean('child')).toBeLessThan(mean('teen') - 1);
  });
});

describe('Japanese child lessons', () => {
  it('use only kana and kanji taught by the end of year 4', () => {
    for (const [id, topic] of Object.entries(knowledge.locales['ja-JP'].topics))
      for (const text of levelTexts(topic, 'child'))
        expect({ id, text, beyond: kanjiBeyondYear4(text) }).toEqual({ id, text, beyond: [] });
  });
});
