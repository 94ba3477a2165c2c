import { describe, expect, it } from 'vitest';
import { SentenceCutter, sentencesOf } from '#web/conversation/sentences';

/** Feeds the text in pieces of `size` characters and records what comes out after each piece. */
function streamed(text: string, locale: Parameters<typeof sentencesOf>[1], size: number) {
  const cutter = new SentenceCutter(locale);
  const out: string[] = [];
  for (let index = 0; index < text.length; index += size)
    out.push(...cutter.push(text.slice(index, index + size)));
  return [...out, ...cutter.flush()];
}

describe('cutting a streamed reply into sentences', () => {
  it('gives each English sentence as soon as the next one begins', () => {
    const cutter = new SentenceCutter('en-US');
    expect(cutter.push('The Sun is a star. It is ')).toEqual(['The Sun is a star.']);
    expect(cutter.push('huge! Want to')).toEqual(['It is huge!']);
    expect(cutter.flush()).toEqual(['Want to']);
    expect(cutter.flush()).toEqual([]);
  });

  it('does not wait for more text after a sentence that has plainly ended', () => {
    const cutter = new SentenceCutter('ja-JP');
    expect(cutter.push('太陽は恒星です。')).toEqual(['太陽は恒星です。']);
    const english = new SentenceCutter('en-US');
    expect(english.push('The Sun is a star. ')).toEqual(['The Sun is a star.']);
    expect(english.push('Great question!')).toEqual(['Great question!']);
    expect(english.push('It is 1.')).toEqual([]);
    expect(english.push('4 million km wide.')).toEqual([]);
    expect(english.push(' Really?')).toEqual(['It is 1.4 million km wide.', 'Really?']);
    expect(english.flush()).toEqual([]);
  });

  it('keeps a decimal whole even when the stream breaks it at the point', () => {
    expect(streamed('The Sun is 1.4 million km wide. That is big.', 'en-US', 1)).toEqual([
      'The Sun is 1.4 million km wide.',
      'That is big.',
    ]);
  });

  it('cuts Japanese and Chinese at their own full stops, with no spaces', () => {
    expect(streamed('太陽は恒星です。とても大きいですね！もっと知りたいですか？', 'ja-JP', 3)).toEqual([
      '太陽は恒星です。',
      'とても大きいですね！',
      'もっと知りたいですか？',
    ]);
    expect(sentencesOf('月球是地球的卫星。它离我们很近。', 'zh-CN')).toEqual([
      '月球是地球的卫星。',
      '它离我们很近。',
    ]);
  });

  it('cuts Arabic at its question mark', () => {
    expect(sentencesOf('ما هي الشمس؟ إنها نجم قريب منا.', 'ar-SA')).toEqual([
      'ما هي الشمس؟',
      'إنها نجم قريب منا.',
    ]);
  });

  it('lets a very short piece ride with the next sentence', () => {
    expect(sentencesOf('Mr. Hubble saw it. Yes.', 'en-US')).toEqual(['Mr. Hubble saw it.', 'Yes.']);
  });

  it('cuts a run-on without punctuation at a pause, so speech can start before it ends', () => {
    const runOn = Array.from({ length: 80 }, (_, index) => `word${index}`).join(' ');
    const sentences = streamed(runOn, 'en-US', 7);
    expect(sentences.length).toBeGreaterThan(1);
    expect(sentences.every((sentence) => sentence.length <= 280)).toBe(true);
    expect(sentences.join(' ')).toBe(runOn);
  });

  it('never cuts a run-on between a number and its unit or exponent, nor inside a name', () => {
    // Each whole straddles the 280th character, where the cut would otherwise fall.
    for (const [tail, whole] of [
      ['it is 1,000 km', '1,000 km'],
      ['light runs at 3 × 10^8 m/s', '3 × 10^8 m/s'],
      ['it weighs about 150 million km', '150 million km'],
      ['the star Proxima Centauri', 'Proxima Centauri'],
      ['the galaxy M 31', 'M 31'],
    ] as const) {
      const start = 280 - Math.floor(whole.length / 2);
      const runOn = `${'x'.repeat(start - (tail.length - whole.length) - 1)} ${tail} and so on and so on`;
      expect(runOn.indexOf(whole)).toBe(start);
      for (const size of [1, 5, 1000]) {
        const sentences = streamed(runOn, 'en-US', size);
        expect(sentences.length, runOn).toBeGreaterThan(1);
        expect(
          sentences.some((sentence) => sentence.includes(whole)),
          `${whole} in ${sentences.join(' | ')}`,
        ).toBe(true);
        expect(sentences.join(' ')).toBe(runOn);
      }
    }
  });

  it('loses and adds nothing: the sentences joined are the reply', () => {
    const reply = 'Black holes bend light. Nothing escapes them, not even light! Shall I draw one?';
    for (const size of [1, 2, 5, 13, 100]) expect(streamed(reply, 'en-US', size).join(' ')).toBe(reply);
  });
});
