import { describe, expect, it } from 'vitest';
import { INIT_MARKER, LOCALES, languageOf, type Locale } from '#contract/languages';
import { IMAGE_PROMPT_MAX_CHARS } from '#contract/limits';
import { LEVELS } from '#contract/teaching';
import { loadKnowledge } from '#lambdas/tutor/offline/knowledge';
import { readKnowledgeFileSync } from '#lambdas/tutor/offline/knowledge-files';
import { parseKnowledge } from '#lambdas/tutor/offline/knowledge-schema';
import { compilePattern } from '#lambdas/tutor/offline/matcher';

const knowledge = loadKnowledge();
const ids = knowledge.index.topics.map((topic) => topic.id);

/** Sentence ends: Latin, Arabic and Hebrew punctuation followed by a space or the end; CJK full stops. */
const sentences = (text: string) => (text.match(/[.!?؟](\s|$)|[。！？]/g) ?? []).length;

const RAW_INDEX = readKnowledgeFileSync('topics');

/** A raw topic's three levels, to break one on purpose. */
type LevelsOf = Record<string, unknown> & {
  levels: Record<'child' | 'teen' | 'adult', Record<string, unknown> & { check: object }>;
};

/** A copy of the raw data files to break on purpose. */
function rawCopy() {
  const clone = <T>(value: T): T => structuredClone(value);
  const locales = Object.fromEntries(LOCALES.map((locale) => [locale, readKnowledgeFileSync(locale)]));
  return { index: clone(RAW_INDEX), locales: clone(locales) } as {
    index: { topics: Record<string, unknown>[] };
    locales: Record<Locale, { topics: Record<string, LevelsOf>; [key: string]: unknown }>;
  };
}

const SCRIPTS: Partial<Record<Locale, RegExp>> = {
  'ar-SA': /\p{Script=Arabic}/u,
  'he-IL': /\p{Script=Hebrew}/u,
  'zh-CN': /\p{Script=Han}/u,
  'ja-JP': /[\p{Script=Hiragana}\p{Script=Katakana}]/u,
};

describe('the offline knowledge base', () => {
  it('covers at least 70 topics, including every topic the product promises', () => {
    expect(ids.length).toBeGreaterThanOrEqual(70);
    expect(ids).toEqual(
      expect.arrayContaining([
        'sun',
        'moon',
        'moon-phases',
        'mercury',
        'venus',
        'earth',
        'mars',
        'jupiter',
        'saturn',
        'uranus',
        'neptune',
        'dwarf-planets',
        'asteroids',
        'comets',
        'meteors',
        'stars',
        'star-life-cycle',
        'black-holes',
        'nebulae',
        'galaxies',
        'milky-way',
        'big-bang',
        'light-years',
        'eclipses',
        'seasons',
        'tides',
        'constellations',
        'exoplanets',
        'telescopes',
        'space-exploration',
        'iss',
        'gravity',
        'orbits',
        'solar-system',
      ]),
    );
  });

  it('gives most topics an English, plain-ASCII image prompt within the contract’s limit', () => {
    const prompts = knowledge.index.topics.flatMap((topic) => (topic.imagePrompt ? [topic.imagePrompt] : []));
    expect(prompts.length).toBeGreaterThanOrEqual(30);
    for (const prompt of prompts) {
      expect(prompt).toMatch(/^[\x20-\x7e]+$/);
      expect(prompt.length).toBeLessThanOrEqual(IMAGE_PROMPT_MAX_CHARS);
    }
  });

  describe.each(LOCALES)('in %s', (locale) => {
    const data = knowledge.locales[locale];

    it('has exactly the topics of the index', () => {
      expect(Object.keys(data.topics).sort()).toEqual([...ids].sort());
    });

    it('explains each topic at each level in spoken sentences with one question, and has more to tell', () => {
      for (const id of ids)
        for (const level of LEVELS) {
          const lesson = data.topics[id]?.levels[level];
          expect({ id, level, sentences: sentences(lesson?.explanation ?? '') }).toEqual({
            id,
            level,
            sentences: expect.toBeOneOf([2, 3, 4, 5]),
          });
          expect(lesson?.check.question).toMatch(/[?？؟]$/u);
          expect(sentences(lesson?.more ?? '')).toBeGreaterThanOrEqual(1);
        }
    });

    it('tells a teen and an adult each topic differently: explanation, more, check and hint', () => {
      for (const id of ids) {
        const { teen, adult } = data.topics[id]?.levels ?? {};
        expect({ id, explanation: teen?.explanation === adult?.explanation }).toEqual({
          id,
          explanation: false,
        });
        expect({ id, more: teen?.more === adult?.more }).toEqual({ id, more: false });
        expect({ id, check: teen?.check.question === adult?.check.question }).toEqual({ id, check: false });
        expect({ id, hint: teen?.check.hint === adult?.check.hint }).toEqual({ id, hint: false });
      }
    });

    it('keeps every text non-empty, free of markdown and of the init marker, and in its own script', () => {
      const texts = [
        data.greeting,
        data.notUnderstood,
        data.declined,
        data.continuation,
        ...Object.values(data.topics).flatMap((topic) => [
          topic.name,
          ...topic.facts.flatMap((fact) => [fact.child, fact.teen, fact.adult ?? fact.teen]),
          ...LEVELS.flatMap((level) => {
            const lesson = topic.levels[level];
            return [
              lesson.explanation,
              lesson.more,
              lesson.check.question,
              lesson.check.hint,
              lesson.check.answer,
            ];
          }),
        ]),
      ];
      for (const text of texts) {
        expect(text.trim().length).toBeGreaterThan(0);
        expect(text).not.toMatch(/[*#|`_]/);
        expect(text).not.toContain(INIT_MARKER);
      }
      const script = SCRIPTS[locale];
      if (script)
        for (const topic of Object.values(data.topics))
          for (const level of LEVELS) expect(topic.levels[level].explanation).toMatch(script);
      if (locale !== 'en-US') {
        for (const id of ids)
          expect(data.topics[id]?.levels.teen.explanation).not.toBe(
            knowledge.locales['en-US'].topics[id]?.levels.teen.explanation,
          );
      }
    });

    it('has keywords that still mean something once folded', () => {
      for (const topic of Object.values(data.topics)) {
        for (const keyword of [...topic.keywords, ...topic.broadKeywords]) {
          const pattern = compilePattern(keyword, data.matching);
          const length = data.matching.mode === 'words' ? pattern.words.length : pattern.text.length;
          expect({ keyword, matchable: length > 0 }).toEqual({ keyword, matchable: true });
        }
      }
    });

    it('greets by the name Astro and asks what to explore', () => {
      expect(data.greeting).toMatch(/Astro|أسترو|אסטרו|アストロ/);
      expect(data.greeting).toMatch(/[?？؟]$/u);
    });

    it('is written for a language whose direction the app knows', () => {
      expect(languageOf(locale).dir).toBe(locale === 'ar-SA' || locale === 'he-IL' ? 'rtl' : 'ltr');
    });
  });

  describe('refuses a broken data file loudly, naming the file', () => {
    it('when a locale misses a topic', () => {
      const raw = rawCopy();
      delete raw.locales['fr-FR'].topics.saturn;
      expect(() => parseKnowledge(raw.index, raw.locales)).toThrow(/fr-FR\.json: missing topics saturn/);
      const [first, second] = raw.index.topics.map((topic) => topic.id);
      const both = rawCopy();
      const topics = both.locales['fr-FR'].topics;
      both.locales['fr-FR'].topics = Object.fromEntries(
        Object.entries(topics).filter(([id]) => id !== first && id !== second),
      );
      expect(() => parseKnowledge(both.index, both.locales)).toThrow(
        `fr-FR.json: missing topics ${first ?? ''}, ${second ?? ''}`,
      );
    });

    it('when a text is empty', () => {
      const raw = rawCopy();
      const topic = raw.locales['ja-JP'].topics.comets;
      if (topic) topic.levels.teen.explanation = '   ';
      expect(() => parseKnowledge(raw.index, raw.locales)).toThrow(
        /ja-JP\.json: topics\.comets\.levels\.teen\.explanation/,
      );
    });

    it('when a spoken text carries markdown', () => {
      const raw = rawCopy();
      const topic = raw.locales['de-DE'].topics.mars;
      if (topic)
        topic.levels.child.check = { ...topic.levels.child.check, question: '**Warum** ist der Mars rot?' };
      expect(() => parseKnowledge(raw.index, raw.locales)).toThrow(
        /de-DE\.json: topics\.mars\.levels\.child\.check\.question/,
      );
    });

    it('when a text would speak the init marker', () => {
      const raw = rawCopy();
      raw.locales['he-IL'].greeting = `${INIT_MARKER} שלום, אני אסטרו. מה תרצו לחקור?`;
      expect(() => parseKnowledge(raw.index, raw.locales)).toThrow(/he-IL\.json: greeting/);
    });

    it('when a template loses its placeholder', () => {
      const raw = rawCopy();
      raw.locales['es-ES'].notUnderstood = 'No te he entendido, pregúntame otra cosa.';
      expect(() => parseKnowledge(raw.index, raw.locales)).toThrow(/es-ES\.json: notUnderstood/);
    });

    it('when an image prompt is not plain English text', () => {
      const raw = rawCopy();
      const saturn = raw.index.topics.find((topic) => topic.id === 'saturn');
      if (saturn) saturn.imagePrompt = 'Saturne et ses anneaux, <b>dessin</b> très joli';
      expect(() => parseKnowledge(raw.index, raw.locales)).toThrow(/topics\.json/);
    });

    it('when a topic points to a next topic that does not exist', () => {
      const raw = rawCopy();
      const sun = raw.index.topics.find((topic) => topic.id === 'sun');
      if (sun) sun.next = 'unicorns';
      const at = raw.index.topics.findIndex((topic) => topic.id === 'sun');
      expect(() => parseKnowledge(raw.index, raw.locales)).toThrow(
        `topics.json: topics.${at}.next: next must name another topic, got unicorns`,
      );
    });

    it('when a topic leads on to itself, or two topics share an id', () => {
      const itself = rawCopy();
      const sun = itself.index.topics.find((topic) => topic.id === 'sun');
      if (sun) sun.next = 'sun';
      expect(() => parseKnowledge(itself.index, itself.locales)).toThrow(
        /topics\.\d+\.next: next must name another topic, got sun/,
      );
      const twice = rawCopy();
      const [first, second] = twice.index.topics;
      if (first && second) second.id = first.id;
      expect(() => parseKnowledge(twice.index, twice.locales)).toThrow(
        new RegExp(`topics\\.1\\.id: duplicate id ${first?.id ?? ''}`),
      );
    });

    it('names at most five problems, each with where it is, joined by semicolons', () => {
      const raw = rawCopy();
      for (const topic of raw.index.topics.slice(0, 7)) topic.next = 'unicorns';
      let message = '';
      try {
        parseKnowledge(raw.index, raw.locales);
      } catch (error) {
        message = String((error as Error).message);
      }
      expect(message.startsWith('topics.json: topics.0.next: ')).toBe(true);
      expect(message.split('; ')).toHaveLength(5);
    });

    it('when a locale has topics the index does not, naming them all', () => {
      const raw = rawCopy();
      const mars = raw.locales['pt-BR'].topics.mars;
      if (mars) Object.assign(raw.locales['pt-BR'].topics, { unicorns: mars, dragons: mars });
      expect(() => parseKnowledge(raw.index, raw.locales)).toThrow(
        'pt-BR.json: unknown topics unicorns, dragons',
      );
    });

    it('when a locale file is for another locale', () => {
      const raw = rawCopy();
      raw.locales['it-IT'] = { ...raw.locales['es-ES'] };
      expect(() => parseKnowledge(raw.index, raw.locales)).toThrow(/it-IT\.json: locale is es-ES/);
    });
  });
});
