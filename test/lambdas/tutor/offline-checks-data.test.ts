/**
 * The checks for understanding in the lesson files (docs/behaviour.md §17.2), each language parsed on its
 * own so one unfinished file does not hide the others' problems.
 */
import { describe, expect, it } from 'vitest';
import { LOCALES } from '#contract/languages';
import { readAnswer } from '#lambdas/tutor/offline/answer-reading';
import { compileLocale } from '#lambdas/tutor/offline/compiled-locale';
import { loadKnowledge, RAW_LOCALE_FILES } from '#lambdas/tutor/offline/knowledge';
import { localeKnowledgeSchema, type LocaleKnowledge } from '#lambdas/tutor/offline/knowledge-schema';
import { compilePattern, indexPatterns, mentions, prepareMessage } from '#lambdas/tutor/offline/matcher';

/** Sentence ends: Latin, Arabic and Hebrew punctuation followed by a space or the end; CJK full stops. */
const sentences = (text: string) => (text.match(/[.!?؟](\s|$)|[。！？]/g) ?? []).length;

/** Whether `text` holds one of `phrases`, matched the way the tutor matches a learner's answer. */
function holds(data: LocaleKnowledge, text: string, phrases: readonly string[]): boolean {
  const index = indexPatterns(
    [phrases.map((phrase) => compilePattern(phrase, data.matching))],
    data.matching,
  );
  return mentions(prepareMessage(text, data.matching), index, data.matching);
}

describe.each(LOCALES)('the checks for understanding in %s', (locale) => {
  // Parsed inside each test, so an unfinished file fails its own tests instead of the whole file.
  const parse = () => {
    const data = localeKnowledgeSchema.parse(RAW_LOCALE_FILES[locale]);
    return { data, topics: Object.entries(data.topics) };
  };

  it('gives every topic an answer sentence that its own accepted answers recognise', () => {
    const { data, topics } = parse();
    for (const [id, topic] of topics)
      expect({ id, recognised: holds(data, topic.check.answer, topic.check.answers) }).toEqual({
        id,
        recognised: true,
      });
  });

  it('never gives an accepted answer away in a hint', () => {
    const { data, topics } = parse();
    for (const [id, topic] of topics)
      expect({ id, givesAway: holds(data, topic.check.hint, topic.check.answers) }).toEqual({
        id,
        givesAway: false,
      });
  });

  it('never reads "I don’t know" as an accepted answer', () => {
    // Read as the tutor reads an answer (docs/behaviour.md §17.2): the words of «j'en sais rien» are no
    // «rien», even though «rien» answers what can escape a black hole.
    const { data } = parse();
    const language = compileLocale(loadKnowledge(), data);
    for (const topic of language.topics)
      for (const words of data.dontKnowWords)
        expect({
          id: topic.id,
          words,
          accepted: readAnswer(words, topic.options, language.judging, language.matching).right,
        }).toEqual({ id: topic.id, words, accepted: false });
  });

  it('tells a young explorer each topic in one or two sentences, shorter than the teen lesson', () => {
    const { topics } = parse();
    for (const [id, topic] of topics) {
      expect({ id, sentences: sentences(topic.childExplanation) }).toEqual({
        id,
        sentences: expect.toBeOneOf([1, 2]),
      });
      expect({ id, shorter: topic.childExplanation.length < topic.explanation.length }).toEqual({
        id,
        shorter: true,
      });
    }
  });
});
