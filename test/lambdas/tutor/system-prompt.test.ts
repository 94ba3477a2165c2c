import { describe, expect, it } from 'vitest';
import { initMessage, LANGUAGES } from '../../../lambdas/contract/languages';
import { modelTurns } from '../../../lambdas/tutor/conversation';
import { DEFAULT_LEVEL, LEVELS, type Level } from '../../../lambdas/contract/teaching';
import {
  initInstruction,
  SHOW_PICTURE_TOOL,
  systemPrompt,
  TUTOR_TOOLS,
} from '../../../lambdas/tutor/system-prompt';

const PROMPTS = LANGUAGES.flatMap((language) =>
  LEVELS.map((level) => [language.value, level, language.englishName] as const),
);

describe('the system prompt (docs/behaviour.md §17.9)', () => {
  it.each(PROMPTS)('for %s at level %s states every teaching rule', (locale, level, englishName) => {
    const prompt = systemPrompt(locale, level);

    expect(prompt).toContain('You are Astro');
    expect(prompt).toContain(`Always reply in ${englishName}`);
    // Level: vocabulary, sentence length, analogies and depth.
    expect(prompt).toMatch(/^Vocabulary: .+/m);
    expect(prompt).toMatch(/^Sentence length: .+/m);
    expect(prompt).toMatch(/^Analogies: .+/m);
    expect(prompt).toMatch(/^Depth: .+/m);
    // Teaching.
    expect(prompt).toMatch(/One idea at a time/);
    expect(prompt).toMatch(/2 to 4 short sentences written to be spoken aloud/);
    expect(prompt).toMatch(/no lists, tables, headings, code, markdown, emoji or links/);
    expect(prompt).toMatch(/end your reply with ONE short question that checks the learner's understanding/);
    expect(prompt).toMatch(/Never ask "any questions\?"/);
    expect(prompt).toMatch(
      /give a hint and let them try again; give the answer only after a second wrong try/,
    );
    // Safety and topic.
    expect(prompt).toMatch(/safe and suitable for young learners/);
    expect(prompt).toMatch(
      /unsuitable for children, kindly say so in one sentence and steer back to an astronomy topic/,
    );
    // Tools, by their real names.
    for (const tool of TUTOR_TOOLS) expect(prompt).toContain(`- ${tool.name}:`);
    expect(prompt).not.toContain('__INIT__');
    expect(prompt).not.toContain('Reference notes');
  });

  it.each(LEVELS)('describes the %s learner in its own words', (level) => {
    const prompt = systemPrompt('en-US', level);
    const expected = { child: /aged 8 to 11/, teen: /aged 12 to 15/, adult: /with an adult\./ }[level];

    expect(prompt).toMatch(expected);
  });

  it('gives each level its own vocabulary, sentence length, analogies and depth', () => {
    const ruleOf = (level: Level, rule: string) =>
      systemPrompt('en-US', level)
        .split('\n')
        .find((line) => line.startsWith(`${rule}: `));
    for (const rule of ['Vocabulary', 'Sentence length', 'Analogies', 'Depth']) {
      const lines = LEVELS.map((level) => ruleOf(level, rule));
      expect(new Set(lines).size, rule).toBe(LEVELS.length);
    }
    expect(ruleOf('child', 'Sentence length')).toMatch(/very short/);
    expect(ruleOf('child', 'Depth')).toMatch(/no\s+formulas/);
    expect(ruleOf('adult', 'Depth')).toMatch(/how we know them/);
  });

  it('teaches at the default level when none is given', () => {
    expect(systemPrompt('en-US')).toBe(systemPrompt('en-US', DEFAULT_LEVEL));
  });

  it('adds the reference notes with the instruction not to contradict them', () => {
    const prompt = systemPrompt('en-US', 'teen', [
      {
        topic: 'black holes',
        text: 'A black hole is where gravity is so strong that not even light escapes.',
      },
      { topic: 'stars', text: 'Stars are giant balls of hot gas.' },
    ]);

    expect(prompt).toMatch(/Reference notes: .*Do not contradict them/);
    expect(prompt).toContain(
      '- black holes: A black hole is where gravity is so strong that not even light escapes.',
    );
    expect(prompt).toContain('- stars: Stars are giant balls of hot gas.');
  });

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
