/**
 * How the offline tutor reads its own turns back from the history and lists topics (docs/behaviour.md
 * §17.1–§17.3): the lesson a turn holds at either level, the check question that ends it, lists of names.
 */
import { describe, expect, it } from 'vitest';
import { loadKnowledge } from '../../../lambdas/tutor/offline/knowledge';
import {
  compileLocale,
  lessonIn,
  listOf,
  questionAtEnd,
} from '../../../lambdas/tutor/offline/compiled-locale';

const knowledge = loadKnowledge();
const english = compileLocale(knowledge, knowledge.locales['en-US']);
const mars = english.byId.get('mars');

describe('reading the offline tutor’s turns back', () => {
  it('finds the lesson a turn holds, at a teen’s or a young explorer’s level, or its "more" text', () => {
    if (!mars) throw new Error('no mars topic');
    expect(lessonIn(`Sure. ${mars.text.explanation} ${mars.text.check.question}`, english)).toEqual({
      topic: mars,
      stage: 'explanation',
    });
    expect(lessonIn(`${mars.text.childExplanation} ${mars.text.check.question}`, english)).toEqual({
      topic: mars,
      stage: 'explanation',
    });
    expect(lessonIn(mars.text.more, english)).toEqual({ topic: mars, stage: 'more' });
    expect(lessonIn('Hello! I am Astro.', english)).toBeUndefined();
  });

  it('finds the check question ending a turn, trailing space or not', () => {
    if (!mars) throw new Error('no mars topic');
    expect(questionAtEnd(`${mars.text.explanation} ${mars.text.check.question} \n`, english)).toBe(mars);
    expect(questionAtEnd(`${mars.text.check.question} Anyway.`, english)).toBeUndefined();
  });
});

describe('a list of names', () => {
  const list = { separator: ', ', last: ' and ' };

  it('joins one name as itself, two with the last word, more with separators before it', () => {
    expect(listOf([], list)).toBe('');
    expect(listOf(['Mars'], list)).toBe('Mars');
    expect(listOf(['Mars', 'Venus'], list)).toBe('Mars and Venus');
    expect(listOf(['Mars', 'Venus', 'Saturn'], list)).toBe('Mars, Venus and Saturn');
  });
});
