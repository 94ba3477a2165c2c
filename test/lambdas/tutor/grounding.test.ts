/**
 * Grounded facts (docs/behaviour.md §17.6): which lessons become reference notes, read per language on
 * first use, over small lesson files handed in by the test (the real files: openai-teaching.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INIT_MARKER, initMessage } from '#contract/languages';
import { createGrounding, type ReadLessonFile } from '#lambdas/tutor/grounding';
import { captureLogs, type CapturedLogs } from '#support/logs';

const topic = (name: string, keywords: string[]) => ({
  name,
  keywords,
  explanation: `${name} explained.`,
  more: `More about ${name}.`,
  // Fields grounding does not read pass untouched.
  check: { question: 'Which?', answers: ['this'] },
});

const LESSONS: Record<string, unknown> = {
  topics: {
    topics: [
      { id: 'moon', priority: 3 },
      { id: 'tides', priority: 2 },
      { id: 'black-holes', priority: 2 },
    ],
  },
  'en-US': {
    locale: 'en-US',
    matching: { mode: 'words', prefixes: [], suffixes: ['s'] },
    topics: {
      moon: topic('the Moon', ['moon']),
      tides: topic('tides', ['tide', 'ocean']),
      'black-holes': topic('black holes', ['black hole', 'event horizon']),
    },
  },
  'ja-JP': {
    locale: 'ja-JP',
    matching: { mode: 'characters', prefixes: [], suffixes: [] },
    topics: {
      moon: topic('月', ['月']),
      tides: topic('潮', ['潮']),
      'black-holes': topic('ブラックホール', ['ブラックホール']),
    },
  },
};

describe('reference notes', () => {
  let reads: string[];
  let logs: CapturedLogs;
  const reader: ReadLessonFile = async (name) => {
    reads.push(name);
    if (!(name in LESSONS)) throw new Error(`ENOENT ${name}.json`);
    return LESSONS[name];
  };
  beforeEach(() => {
    reads = [];
    logs = captureLogs();
  });
  afterEach(() => logs.restore());

  it('gives the best matching lesson, named and told in the conversation language', async () => {
    const notes = createGrounding(reader);

    expect(await notes('What is a black hole?', 'en-US')).toEqual([
      { topic: 'black holes', text: 'black holes explained. More about black holes.' },
    ]);
    // Chinese and Japanese sentences are joined without a space.
    expect(await notes('ブラックホールって何？', 'ja-JP')).toEqual([
      { topic: 'ブラックホール', text: 'ブラックホール explained.More about ブラックホール.' },
    ]);
  });

  it('adds a second lesson only when it matches about as well as the best one', async () => {
    const notes = createGrounding(reader);

    const both = await notes('Does the moon make the tides?', 'en-US');
    const one = await notes('Can a black hole swallow the moon?', 'en-US');

    expect(both.map((note) => note.topic)).toEqual(['the Moon', 'tides']);
    // "black hole" covers 9 letters, "moon" 4: less than half, so no second note.
    expect(one.map((note) => note.topic)).toEqual(['black holes']);
  });

  it('gives none for the opening message or a message naming no topic', async () => {
    const notes = createGrounding(reader);

    expect(await notes(initMessage('en-US'), 'en-US')).toEqual([]);
    // Whatever the opening message says after its marker.
    expect(await notes(`${INIT_MARKER} Tell me about the moon`, 'en-US')).toEqual([]);
    expect(await notes('What is your favourite food?', 'en-US')).toEqual([]);
  });

  it('gives at most two notes, and a second one that covers exactly half of what the best covers', async () => {
    const even: ReadLessonFile = async (name) =>
      name === 'topics'
        ? { topics: ['alpha', 'bravo', 'delta'].map((id) => ({ id, priority: 2 })) }
        : {
            locale: 'en-US',
            matching: { mode: 'words', prefixes: [], suffixes: [] },
            topics: {
              alpha: topic('alpha', ['alpha']),
              bravo: topic('bravo', ['bravo', 'comets']),
              delta: topic('delta', ['delta', 'sun']),
            },
          };
    const notes = createGrounding(even);

    // Three lessons covering as much: two notes.
    expect(await notes('alpha bravo delta', 'en-US')).toHaveLength(2);
    // "comets" covers 6 letters, "sun" 3: exactly half, so both.
    expect((await notes('comets and the sun', 'en-US')).map((note) => note.topic)).toEqual([
      'bravo',
      'delta',
    ]);
  });

  it('reads each language once, on its first use, and only that language', async () => {
    const notes = createGrounding(reader);

    await notes('moon', 'en-US');
    await notes('tide', 'en-US');
    expect(reads).toEqual(['topics', 'en-US']);
    await notes('月', 'ja-JP');
    expect(reads).toEqual(['topics', 'en-US', 'ja-JP']);
  });

  it('answers without notes when a lesson file cannot be read or is broken, and logs it once', async () => {
    const broken: ReadLessonFile = async (name) =>
      name === 'fr-FR' ? { locale: 'fr-FR', topics: 'none' } : reader(name);
    const notes = createGrounding(broken);

    expect(await notes('lune', 'de-DE')).toEqual([]);
    expect(await notes('lune', 'fr-FR')).toEqual([]);
    expect(await notes('lune encore', 'fr-FR')).toEqual([]);

    const errors = logs.entries().filter((entry) => entry.level === 'error');
    expect(errors.map((entry) => entry.locale)).toEqual(['de-DE', 'fr-FR']);
    expect(errors[0]?.message).toMatch(/without reference notes/);
    expect(await notes('moon', 'en-US')).toHaveLength(1);
  });
});
