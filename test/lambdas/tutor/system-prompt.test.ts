import { describe, expect, it } from 'vitest';
import { initMessage, LANGUAGES } from '#contract/languages';
import { modelTurns } from '#lambdas/tutor/conversation';
import { DEFAULT_LEVEL, LEVELS, type Level } from '#contract/teaching';
import {
  initInstruction,
  modelUserText,
  SHOW_PICTURE_TOOL,
  systemPrompt,
  TUTOR_TOOLS,
} from '#lambdas/tutor/system-prompt';

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

  it('tells the model each rule in full, in its own section', () => {
    const prompt = systemPrompt('en-US', 'teen');
    // Sections apart, each under its heading.
    expect(prompt).toMatch(
      /the language of this conversation\.\n\nLevel: teach for a teenager aged 12 to 15\.\n/,
    );
    expect(prompt).toMatch(/\n\nHow to teach:\n- One idea at a time/);
    expect(prompt).toMatch(/\n\nSafety and topic:\n- The learner may be a child/);
    expect(prompt).toMatch(
      /\n\nTools \(never mention them, their names or their input in your reply\):\n- show_picture:/,
    );
    for (const rule of [
      '- Hints before answers: when the learner answers your check question wrongly or says they do not know',
      '- Be accurate and encouraging; if you are not sure of something, say so simply.',
      'frightening, violent or personal; never ask for personal details.',
      '- Talk only about astronomy and space. If the learner asks about something else',
      'call it once, with its prompt in English, and still give your spoken reply; otherwise do not call it.',
      'call it with correct true or false, and still give your spoken reply.',
      'call it, and still give your spoken reply ending with that question.',
    ]) {
      expect(prompt).toContain(rule);
    }
    expect(systemPrompt('en-US', 'teen', [{ topic: 'stars', text: 'Stars shine.' }])).toMatch(
      /calls both tools\.\n\nReference notes: /,
    );
  });

  it('knows the init message however much space comes before it', () => {
    expect(modelUserText(`  ${initMessage('fr-FR')}`, 'fr-FR')).toBe(initInstruction('fr-FR'));
    expect(modelUserText('  What is a comet?  ', 'fr-FR')).toBe('What is a comet?');
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
