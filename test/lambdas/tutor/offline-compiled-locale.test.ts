/**
 * How the offline tutor reads its own turns back from the history and lists topics (docs/behaviour.md
 * §17.1–§17.3): the lesson a turn holds at either level, the check question that ends it, lists of names.
 */
import { describe, expect, it } from 'vitest';
import type { ChatTurn } from '#contract/schemas';
import { loadKnowledge } from '#lambdas/tutor/offline/knowledge';
import { createOfflineTutor } from '#lambdas/tutor/offline/offline-tutor';
import { quizProgress } from '#lambdas/tutor/offline/quiz';
import {
  bestTopic,
  compileLocale,
  joinSentences,
  lessonIn,
  listOf,
  questionAtEnd,
} from '#lambdas/tutor/offline/compiled-locale';

const knowledge = loadKnowledge();
const english = compileLocale(knowledge.index, knowledge.locales['en-US']);
const mars = english.byId.get('mars');

describe('reading the offline tutor’s turns back', () => {
  it('finds the lesson a turn holds, at any level, or its "more" text', () => {
    if (!mars) throw new Error('no mars topic');
    const { child, teen, adult } = mars.levels;
    expect(lessonIn(`Sure. ${teen.explanation} ${teen.check.text.question}`, english)).toEqual({
      topic: mars,
      stage: 'explanation',
    });
    expect(lessonIn(`${child.explanation} ${child.check.text.question}`, english)).toEqual({
      topic: mars,
      stage: 'explanation',
    });
    expect(lessonIn(adult.more, english)).toEqual({ topic: mars, stage: 'more' });
    expect(lessonIn('Hello! I am Astro.', english)).toBeUndefined();
  });

  it('finds the check question ending a turn, trailing space or not', () => {
    if (!mars) throw new Error('no mars topic');
    const { teen, adult } = mars.levels;
    expect(questionAtEnd(`${teen.explanation} ${teen.check.text.question} \n`, english, 'teen')).toBe(
      teen.check,
    );
    expect(questionAtEnd(`${adult.check.text.question}`, english, 'adult')).toBe(adult.check);
    expect(questionAtEnd(`${teen.check.text.question} Anyway.`, english)).toBeUndefined();
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

describe('a quiz in progress, read from Astro’s turns', () => {
  const tutor = createOfflineTutor();
  const ask = (userMessage: string, history: ChatTurn[] = []) =>
    tutor.reply({ userMessage, language: 'en-US', history });
  const question = (id: string) => english.byId.get(id)?.levels.teen.check.text.question ?? '';

  it('follows the questions in order, counting right answers, and stops at anything out of order', async () => {
    const opening = (await ask('Quiz me on comets')).response;
    const start = quizProgress([opening], english);
    expect(start?.position).toBe(0);
    expect(start?.score).toBe(0);
    const [first, second, third] = start?.plan ?? [];
    if (!first || !second || !third) throw new Error('a quiz of three topics');
    // Trailing space after the opening changes nothing.
    expect(quizProgress([`${opening} \n`], english)?.plan).toEqual(start?.plan);

    const history: ChatTurn[] = [
      { role: 'user', content: 'Quiz me on comets' },
      { role: 'assistant', content: opening },
    ];
    const right = (await ask(first.levels.teen.check.text.answers[0] ?? '', history)).response;
    expect(quizProgress([opening, right], english)).toMatchObject({ position: 1, score: 1 });
    // A hint asks the same question again: still the second question, still one right.
    const hint = `Not quite. Here is a hint. ${question(second.id)}`;
    expect(quizProgress([opening, right, hint], english)).toMatchObject({ position: 1, score: 1 });

    // Skipping a question, or a turn that ends with no question, is no quiz of Astro's.
    expect(quizProgress([opening, `Next question: ${question(third.id)}`], english)).toBeUndefined();
    expect(quizProgress([opening, 'Great job.', right], english)).toBeUndefined();
    // A lesson on the next topic in between ends the quiz, even though its check is the next question.
    const lesson = `${second.levels.teen.explanation} ${question(second.id)}`;
    expect(quizProgress([opening, lesson], english)).toBeUndefined();
  });

  it('takes an opening only as Astro writes it: its own lead, its own list, its first question last', async () => {
    const opening = (await ask('Quiz me on comets')).response;
    expect(quizProgress([opening], english)).toBeDefined();
    // Each change keeps the length, so only the check of that part can tell.
    expect(quizProgress([opening.replace('Quiz time!', 'Quiz tome!')], english)).toBeUndefined();
    expect(quizProgress([opening.replace('the first one', 'the final one')], english)).toBeUndefined();
    expect(quizProgress([opening.replace(', ', ' / ')], english)).toBeUndefined();
    expect(
      quizProgress([`${opening.slice(0, opening.indexOf(' Here is'))} ${question('mars')}`], english),
    ).toBeUndefined();
  });
});

describe('a language compiled for matching', () => {
  it('joins sentences with a space, or with nothing in Chinese and Japanese', () => {
    const japanese = compileLocale(knowledge.index, knowledge.locales['ja-JP']);
    const english = compileLocale(knowledge.index, knowledge.locales['en-US']);
    expect(joinSentences(japanese, '火星は赤い。', 'なぜ？')).toBe('火星は赤い。なぜ？');
    expect(joinSentences(english, 'Mars is red.', 'Why?')).toBe('Mars is red. Why?');
  });

  it('matches phrases as written, keywords with the language’s prefixes and endings', () => {
    const english = compileLocale(knowledge.index, knowledge.locales['en-US']);
    expect(english.matching.suffixes.length).toBeGreaterThan(0);
    expect(english.phraseMatching).toEqual({ ...english.matching, prefixes: [], suffixes: [] });
  });

  it('falls back to English keywords of four letters or more only', () => {
    const english = compileLocale(knowledge.index, knowledge.locales['en-US']);
    expect(bestTopic('sunshine', english, english.fallbackKeywords)?.id).toBe('sun');
    expect(bestTopic('moon', english, english.fallbackKeywords)?.id).toBe('moon');
    expect(bestTopic('sun', english, english.fallbackKeywords)).toBeUndefined();
  });

  it('refuses a language that misses a topic, naming both', () => {
    const data = knowledge.locales['it-IT'];
    const topics = Object.fromEntries(Object.entries(data.topics).filter(([id]) => id !== 'mars'));
    expect(() => compileLocale(knowledge.index, { ...data, topics })).toThrow('it-IT: missing topic mars');
  });
});
