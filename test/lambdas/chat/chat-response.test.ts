import { describe, expect, it } from 'vitest';
import { clampPrompt, toChatResponse } from '#lambdas/chat/chat-response';

describe('the reply the chat endpoint sends', () => {
  it('trims the text and removes the marker wherever it appears', () => {
    expect(
      toChatResponse({ response: '  Hello __INIT__ there!  ', imagePrompt: '__INIT__ A comet' }),
    ).toEqual({
      response: 'Hello there!',
      imagePrompt: 'A comet',
    });
  });

  it('leaves out a blank picture prompt', () => {
    expect(toChatResponse({ response: 'Hi', imagePrompt: '   ' })).toEqual({ response: 'Hi' });
  });

  it('carries the check for understanding as the tutor reported it', () => {
    const check = { type: 'answer', correct: true } as const;
    expect(toChatResponse({ response: 'Yes, Mars!', check })).toEqual({ response: 'Yes, Mars!', check });
    expect(toChatResponse({ response: 'Hi' })).not.toHaveProperty('check');
  });

  it('refuses an empty reply as an upstream error', () => {
    expect(() => toChatResponse({ response: ' \n ' })).toThrow(
      expect.objectContaining({ code: 'upstream_error' }),
    );
  });
});

describe('cutting a picture prompt to the limit', () => {
  it('keeps a prompt within the limit unchanged', () => {
    expect(clampPrompt('A ringed planet', 20)).toBe('A ringed planet');
  });

  it('cuts at the last word boundary near the limit', () => {
    expect(clampPrompt('one two three four five six', 20)).toBe('one two three four');
  });

  it('never leaves half of a surrogate pair behind', () => {
    const cut = clampPrompt(`${'a'.repeat(9)}🪐🪐`, 10);

    expect(cut).toBe('a'.repeat(9));
    expect(cut.length).toBeLessThanOrEqual(10);
  });
});
