import { describe, expect, it } from 'vitest';
import {
  compareCandidates,
  compilePattern,
  coverAll,
  fold,
  indexPatterns,
  prepareMessage,
  tokenize,
  type Matching,
} from '#lambdas/tutor/offline/matcher';

const english: Matching = { mode: 'words', prefixes: [], suffixes: ['s', 'es'] };
const arabic: Matching = { mode: 'words', prefixes: ['ال', 'و', 'وال', 'ب', 'بال'], suffixes: ['ات'] };
const chinese: Matching = { mode: 'characters', prefixes: [], suffixes: [] };

/** Scores per group of keywords for one message. */
function scores(message: string, groups: readonly (readonly string[])[], matching: Matching) {
  const index = indexPatterns(
    groups.map((keywords) => keywords.map((keyword) => compilePattern(keyword, matching))),
    matching,
  );
  return Object.fromEntries(coverAll(prepareMessage(message, matching), index, matching));
}

describe('offline keyword matching', () => {
  it('folds case, accents, German ß and ligatures', () => {
    expect(fold('Vía LÁCTEA', 'words')).toBe('via lactea');
    expect(fold('Große Bär', 'words')).toBe('grosse bar');
    expect(fold('Cœur', 'words')).toBe('coeur');
  });

  it('folds Arabic diacritics, hamza forms, ta marbuta and alef maqsura, and Hebrew niqqud', () => {
    expect(fold('الشَّمْسُ', 'words')).toBe('الشمس');
    expect(fold('أرض', 'words')).toBe(fold('ارض', 'words'));
    expect(fold('المجرة', 'words')).toBe(fold('المجره', 'words'));
    expect(fold('المشترى', 'words')).toBe(fold('المشتري', 'words'));
    expect(fold('יָרֵחַ', 'words')).toBe('ירח');
  });

  it('keeps Japanese voicing marks but folds full-width letters and spaces in Chinese and Japanese', () => {
    expect(fold('ガス', 'characters')).toBe('ガス');
    expect(fold('ガス', 'characters')).not.toBe(fold('カス', 'characters'));
    expect(fold('ＩＳＳ　宇宙', 'characters')).toBe('iss宇宙');
  });

  it('splits words on punctuation and treats Chinese and Japanese runs as separators', () => {
    expect(tokenize(fold("Saturn's rings!", 'words'))).toEqual(['saturn', 's', 'rings']);
    expect(tokenize(fold('Mars是什么', 'words'))).toEqual(['mars']);
  });

  it('prefers the longer, more specific keyword', () => {
    const result = scores('what is a black hole', [['black hole'], ['hole']], english);
    expect(result[0]?.score).toBeGreaterThan(result[1]?.score ?? 0);
  });

  it('counts a covered word once however many keywords cover it', () => {
    const result = scores('black holes', [['black hole', 'black holes', 'holes']], english);
    expect(result[0]).toEqual({ score: 'blackholes'.length, longest: 'blackholes'.length });
  });

  it('accepts an ending only on the last word of a keyword', () => {
    expect(scores('rings of saturn', [['ring']], english)[0]).toBeDefined();
    expect(scores('blacks hole', [['black hole']], english)[0]).toBeUndefined();
  });

  it('strips Arabic clitics from the front of every word of a keyword', () => {
    expect(scores('والثقب الأسود', [['ثقب أسود']], arabic)[0]).toBeDefined();
    expect(scores('بالكويكبات', [['كويكب']], arabic)[0]).toBeDefined();
    expect(scores('يكون', [['كون']], arabic)[0]).toBeUndefined();
  });

  it('finds Chinese keywords inside a sentence without spaces and counts characters once', () => {
    const result = scores('土星的光环是什么做的', [['土星', '土星的光环', '光环'], ['环形山']], chinese);
    expect(result[0]).toEqual({ score: 5, longest: 5 });
    expect(result[1]).toBeUndefined();
  });
});

describe('ranking the topics a message matches', () => {
  const candidate = (score: number, longest: number, priority: number, order: number) => ({
    score,
    longest,
    priority,
    order,
  });
  const best = (...candidates: ReturnType<typeof candidate>[]) =>
    [...candidates].sort(compareCandidates).map((ranked) => ranked.order);

  it('prefers more of the message covered, then the longer keyword, then priority, then data order', () => {
    expect(best(candidate(3, 9, 3, 0), candidate(5, 1, 1, 1))).toEqual([1, 0]);
    expect(best(candidate(5, 3, 3, 0), candidate(5, 7, 1, 1))).toEqual([1, 0]);
    expect(best(candidate(5, 7, 1, 0), candidate(5, 7, 3, 1))).toEqual([1, 0]);
    expect(best(candidate(5, 7, 2, 1), candidate(5, 7, 2, 0))).toEqual([0, 1]);
    expect(best(candidate(5, 7, 2, 3), candidate(5, 7, 2, 5), candidate(5, 7, 2, 4))).toEqual([3, 4, 5]);
  });
});
