import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOfflineTutor, pieces } from '#lambdas/tutor/offline/offline-tutor';
import { spokenText, spokenTextStream } from '#lambdas/tutor/model-text';
import { StreamedText, withoutPartial, withoutTrailingSpace } from '#lambdas/tutor/streamed-text';
import { doneEvent } from '#lambdas/tutor/tutor';
import { initMessage, LOCALES } from '#contract/languages';
import { collect, doneReply } from '#support/tutor-stream';

/** Cuts `text` at the given positions. */
function cut(text: string, positions: readonly number[]): string[] {
  const points = [...new Set(positions.map((position) => position % (text.length + 1)))].sort(
    (a, b) => a - b,
  );
  const parts: string[] = [];
  let start = 0;
  for (const point of points) {
    parts.push(text.slice(start, point));
    start = point;
  }
  parts.push(text.slice(start));
  return parts;
}

describe('streamed model text', () => {
  it('gives out pieces that always concatenate to spokenText of the whole, however the text is cut', () => {
    const fragment = fc.constantFrom(
      'Mars ',
      'is',
      ' red',
      '.',
      '\n',
      '  ',
      '\t',
      '<think>',
      '</think>',
      '<thinking>',
      '</thinking>',
      '<answer>',
      '</response>',
      '<',
      '</',
      'a<b',
      '*',
      '**bold**',
      '日本',
      '。',
      '🌞',
    );
    fc.assert(
      fc.property(
        fc.array(fragment, { maxLength: 16 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (parts, points) => {
          const raw = parts.join('');
          const stream = spokenTextStream();
          let given = '';
          for (const piece of cut(raw, points)) {
            given += stream.push(piece);
            // Never ahead of what the whole text will be.
            expect(spokenText(raw).startsWith(given)).toBe(true);
          }
          given += stream.finish();
          expect(given).toBe(spokenText(raw));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('gives out at once the text around a thinking block already closed', () => {
    const stream = spokenTextStream();
    expect(stream.push('Hi <think>plan it</think> there.')).toBe('Hi there.');
  });

  it('holds back an open thinking block and a half-written tag until they are settled', () => {
    const stream = spokenTextStream();
    expect(stream.push('Mars <thi')).toBe('Mars');
    expect(stream.push('nk>is it red?')).toBe('');
    expect(stream.push('</think> is red.')).toBe(' is red.');
    expect(stream.finish()).toBe('');
  });
});

describe('the offline tutor streaming', () => {
  const tutor = createOfflineTutor();

  it.each(LOCALES)(
    'streams the lesson in pieces of a few words that join to the reply (%s)',
    async (language) => {
      for (const userMessage of [initMessage(language), 'Tell me about Saturn', 'What is a black hole?']) {
        const request = { userMessage, language, history: [] };
        const streamed = await collect(tutor.stream(request));
        const reply = await tutor.reply(request);

        expect(streamed.error).toBeUndefined();
        expect(streamed.text).toBe(reply.response);
        expect(doneReply(streamed.events)).toEqual(reply);
        expect(streamed.events.filter((event) => event.type === 'picture')).toEqual(
          reply.imagePrompt ? [{ type: 'picture', imagePrompt: reply.imagePrompt }] : [],
        );
      }
    },
  );

  it('cuts English into pieces of four words and Japanese into word pieces, never inside a word', () => {
    expect(pieces('Saturn is a gas giant with rings.', 'en-US')).toEqual([
      'Saturn is a gas ',
      'giant with rings.',
    ]);
    const japanese = '土星はガスでできた巨大な惑星です。';
    const parts = pieces(japanese, 'ja-JP');
    expect(parts.join('')).toBe(japanese);
    expect(parts.length).toBeGreaterThan(1);
  });

  it('streams several pieces for a lesson, not one', async () => {
    const streamed = await collect(
      tutor.stream({ userMessage: 'Tell me about Saturn', language: 'en-US', history: [] }),
    );
    expect(streamed.events.filter((event) => event.type === 'delta').length).toBeGreaterThan(3);
  });
});

describe('the pieces of streamed text', () => {
  it('fails the reply rather than show text the whole reply does not hold', () => {
    // A cleaning that changes what it already gave out once more text arrives.
    const stream = new StreamedText(
      (raw) => (raw.endsWith('!') ? raw.replace('a', 'b') : raw),
      (raw) => raw.length,
    );
    expect(stream.push('a')).toBe('a');
    expect(stream.push('!')).toBe('');
    expect(() => stream.finish()).toThrow('streamed text diverged from the whole reply');
  });

  it('holds back trailing space and a word still being written', () => {
    expect(withoutTrailingSpace('Hi \n ')).toBe('Hi');
    expect(withoutPartial('Hello <thi', '<thinking>')).toBe('Hello ');
    expect(withoutPartial('x<thinking', '<thinking>')).toBe('x');
    expect(withoutPartial('<th', '<thinking>')).toBe('');
    // A whole word is not partial, and only the end of the text counts.
    expect(withoutPartial('a <thinking>', '<thinking>')).toBe('a <thinking>');
    expect(withoutPartial('<tea is hot', '<thinking>')).toBe('<tea is hot');
  });
});

describe('the done event', () => {
  it('carries a picture and a check only when the reply has them', () => {
    expect(Object.keys(doneEvent({ response: 'Hi' }))).toEqual(['type', 'response']);
    expect(doneEvent({ response: 'Hi', imagePrompt: 'Saturn', check: { type: 'question' } })).toEqual({
      type: 'done',
      response: 'Hi',
      imagePrompt: 'Saturn',
      check: { type: 'question' },
    });
  });
});
