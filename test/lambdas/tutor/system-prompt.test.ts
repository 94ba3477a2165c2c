import { describe, expect, it } from 'vitest';
import { initMessage, LANGUAGES } from '../../../lambdas/contract/languages';
import { modelTurns } from '../../../lambdas/tutor/conversation';
import { initInstruction, SHOW_PICTURE_TOOL, systemPrompt } from '../../../lambdas/tutor/system-prompt';

describe('the system prompt', () => {
  it.each(LANGUAGES.map((language) => [language.value, language.englishName] as const))(
    'for %s names %s as the language to answer in and keeps Astro a short, spoken, safe astronomy tutor',
    (locale, englishName) => {
      const prompt = systemPrompt(locale);

      expect(prompt).toContain(`Always reply in ${englishName}`);
      expect(prompt).toContain('You are Astro');
      expect(prompt).toMatch(/2 to 4 short sentences/);
      expect(prompt).toMatch(/no\s+lists, tables, headings, code, markdown/);
      expect(prompt).toMatch(/checking the learner's understanding/);
      expect(prompt).toMatch(/steer back to an astronomy topic/);
      expect(prompt).toMatch(/unsuitable for children/);
      expect(prompt).toContain('show_picture');
      expect(prompt).not.toContain('__INIT__');
    },
  );

  it('tells the model to write picture prompts in English in the tool description', () => {
    expect(SHOW_PICTURE_TOOL.description).toMatch(/Always write the prompt in English/);
    expect(SHOW_PICTURE_TOOL.inputSchema.required).toEqual(['prompt']);
  });

  it('turns the init message into an instruction to greet, introduce Astro and ask what to explore', () => {
    expect(initInstruction('ja-JP')).toMatch(/Greet the learner warmly in Japanese/);
    expect(initInstruction('ja-JP')).toMatch(/introduce yourself as Astro/);
    expect(initInstruction('ja-JP')).toMatch(/ask what they would like to explore/);
    expect(modelTurns({ userMessage: initMessage('ja-JP'), language: 'ja-JP', history: [] })).toEqual([
      { role: 'user', text: initInstruction('ja-JP') },
    ]);
  });
});

describe('the conversation sent to a model', () => {
  it('keeps a history that already starts with the learner as it is', () => {
    expect(
      modelTurns({
        userMessage: 'Why?',
        language: 'en-US',
        history: [
          { role: 'user', content: 'Is Pluto a planet?' },
          { role: 'assistant', content: 'It is a dwarf planet.' },
        ],
      }),
    ).toEqual([
      { role: 'user', text: 'Is Pluto a planet?' },
      { role: 'assistant', text: 'It is a dwarf planet.' },
      { role: 'user', text: 'Why?' },
    ]);
  });

  it('merges the new message into a history that ends with the learner', () => {
    expect(
      modelTurns({
        userMessage: 'the red one',
        language: 'en-US',
        history: [{ role: 'user', content: 'Mars' }],
      }),
    ).toEqual([{ role: 'user', text: 'Mars\n\nthe red one' }]);
  });
});
