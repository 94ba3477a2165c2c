/**
 * The checks for understanding in the lesson files (docs/behaviour.md §17.2), every level of every topic,
 * each language compiled on its own so one unfinished file does not hide the others' problems.
 */
import { describe, expect, it } from 'vitest';
import { LOCALES } from '#contract/languages';
import { LEVELS } from '#contract/teaching';
import { readAnswer } from '#lambdas/tutor/offline/answer-reading';
import { lessons } from '#lambdas/tutor/offline/knowledge';
import { compilePattern, indexPatterns, mentions, prepareMessage } from '#lambdas/tutor/offline/matcher';
import type { CompiledLocale } from '#lambdas/tutor/offline/compiled-locale';

/** Whether `text` holds one of `phrases`, matched the way the tutor matches a learner's answer. */
function holds(language: CompiledLocale, text: string, phrases: readonly string[]): boolean {
  const { matching } = language.data;
  const index = indexPatterns([phrases.map((phrase) => compilePattern(phrase, matching))], matching);
  return mentions(prepareMessage(text, matching), index, matching);
}

describe.each(LOCALES)('the checks for understanding in %s', (locale) => {
  const language = () => lessons.language(locale);
  const checks = () =>
    language().topics.flatMap((topic) =>
      LEVELS.map((level) => ({ id: `${topic.id}/${level}`, check: topic.levels[level].check })),
    );

  it('gives every check an answer sentence that its own accepted answers recognise', () => {
    for (const { id, check } of checks())
      expect({ id, recognised: holds(language(), check.text.answer, check.text.answers) }).toEqual({
        id,
        recognised: true,
      });
  });

  it('never gives an accepted answer away in a hint', () => {
    for (const { id, check } of checks())
      for (const hint of check.hints)
        expect({ id, hint, givesAway: holds(language(), hint, check.text.answers) }).toEqual({
          id,
          hint,
          givesAway: false,
        });
  });

  it('never reads "I don’t know" as an accepted answer', () => {
    // Read as the tutor reads an answer (docs/behaviour.md §17.2): the words of «j'en sais rien» are no
    // «rien», even though «rien» answers what can escape a black hole.
    const compiled = language();
    for (const { id, check } of checks())
      for (const words of compiled.data.dontKnowWords)
        expect({
          id,
          words,
          accepted: readAnswer(words, check.options, compiled.judging, compiled.matching).right,
        }).toEqual({ id, words, accepted: false });
  });
});
