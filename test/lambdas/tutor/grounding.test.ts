/**
 * Grounded facts (docs/behaviour.md §17.6): which lessons become reference notes, at the learner's level,
 * read per language on first use, over the real lesson files read through a recording reader.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INIT_MARKER, initMessage } from '#contract/languages';
import { createGrounding, MAX_NOTES, type ReadLessonFile } from '#lambdas/tutor/grounding';
import { lessons } from '#lambdas/tutor/offline/knowledge';
import { readKnowledgeFile } from '#lambdas/tutor/offline/knowledge-files';
import { captureLogs, type CapturedLogs } from '#support/logs';

const topicOf = (locale: 'en-US' | 'ja-JP', id: string) => {
  const topic = lessons.language(locale).byId.get(id);
  if (!topic) throw new Error(`no topic ${id}`);
  return topic;
};

describe('reference notes', () => {
  let reads: string[];
  let logs: CapturedLogs;
  const reader: ReadLessonFile = async (name) => {
    reads.push(name);
    return readKnowledgeFile(name);
  };

  beforeEach(() => {
    reads = [];
    logs = captureLogs();
  });
  afterEach(() => logs.restore());

  it('gives the fact that answers the question first, then the lesson at the learner level', async () => {
    const notes = createGrounding(reader);
    const moon = topicOf('en-US', 'moon');
    const far = moon.facts.find((fact) => fact.shape === 'how-far');

    const child = await notes('How far away is the Moon?', 'en-US', 'child');
    const adult = await notes('How far away is the Moon?', 'en-US', 'adult');

    expect(child[0]?.topic).toBe(moon.text.name);
    expect(child[0]?.text.startsWith(far?.text.child ?? '?')).toBe(true);
    expect(child[0]?.text).toContain(moon.levels.child.explanation.split('. ')[0]);
    expect(adult[0]?.text.startsWith(far?.text.adult ?? '?')).toBe(true);
    expect(adult[0]?.text).toContain(moon.levels.adult.more);
    expect(adult[0]?.text).not.toBe(child[0]?.text);
  });

  it('joins Chinese and Japanese sentences without a space', async () => {
    const notes = createGrounding(reader);
    const hole = topicOf('ja-JP', 'black-holes');

    const [note] = await notes('ブラックホールについて教えて', 'ja-JP', 'teen');

    expect(note?.topic).toBe(hole.text.name);
    expect(note?.text).toContain(`${hole.levels.teen.explanation}${hole.levels.teen.more}`);
  });

  it('gives at most two notes, best match first', async () => {
    const notes = createGrounding(reader);

    const many = await notes('the moon, the sun, tides, comets and black holes', 'en-US', 'teen');
    const one = await notes('Tell me about black holes', 'en-US', 'teen');

    expect(many.length).toBeLessThanOrEqual(MAX_NOTES);
    expect(many.length).toBeGreaterThan(1);
    expect(one.map((note) => note.topic)).toEqual([topicOf('en-US', 'black-holes').text.name]);
  });

  it('gives none for the opening message or a message naming no topic', async () => {
    const notes = createGrounding(reader);

    expect(await notes(initMessage('en-US'), 'en-US', 'teen')).toEqual([]);
    // Whatever the opening message says after its marker.
    expect(await notes(`${INIT_MARKER} Tell me about the moon`, 'en-US', 'teen')).toEqual([]);
    expect(await notes('What is your favourite food?', 'en-US', 'teen')).toEqual([]);
  });

  it('reads each language once, on its first use, and only that language', async () => {
    const notes = createGrounding(reader);

    await notes('moon', 'en-US', 'teen');
    await notes('tides', 'en-US', 'child');
    expect(reads).toEqual(['topics', 'en-US']);
    await notes('月', 'ja-JP', 'teen');
    expect(reads).toEqual(['topics', 'en-US', 'ja-JP']);
  });

  it('answers without notes when a lesson file cannot be read or is broken, and logs it once', async () => {
    const broken: ReadLessonFile = async (name) => {
      if (name === 'de-DE') throw new Error('ENOENT de-DE.json');
      return name === 'fr-FR' ? { locale: 'fr-FR', topics: 'none' } : reader(name);
    };
    const notes = createGrounding(broken);

    expect(await notes('Mond', 'de-DE', 'teen')).toEqual([]);
    expect(await notes('lune', 'fr-FR', 'teen')).toEqual([]);
    expect(await notes('lune encore', 'fr-FR', 'teen')).toEqual([]);

    const errors = logs.entries().filter((entry) => entry.level === 'error');
    expect(errors.map((entry) => entry.locale)).toEqual(['de-DE', 'fr-FR']);
    expect(errors[0]?.message).toMatch(/without reference notes/);
    expect(await notes('moon', 'en-US', 'teen')).toHaveLength(1);
  });
});
