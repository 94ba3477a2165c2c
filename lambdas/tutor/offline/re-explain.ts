/**
 * What the offline tutor says when a learner asks for help with an open check question, or asks a
 * question of their own (docs/behaviour.md §17.2): the fact that answers what they asked, or the lesson's
 * sentence that does; otherwise the lesson again in other words (the next level down's simpler text for
 * a teen or an adult, a hint that contrasts the options for a child); never a text that gives the answer
 * away, and never the same text twice in a row.
 */
import { LEVELS, type Level } from '../../contract/teaching';
import { readAnswer } from './answer-reading';
import { unitsOf } from './message-units';
import { chooseFact, factText, lessonAfter } from './answers';
import {
  joinSentences,
  lessonText,
  type CompiledCheck,
  type CompiledLocale,
  type CompiledTopic,
} from './compiled-locale';
import { sentencesOf } from './sentences';

export { sentencesOf } from './sentences';

/** A word of the learner's counts when it is this rare among all the lessons' sentences (1 in 20). */
const SPECIFIC = Math.log(20);
/** Words compared by their first letters, so "twinkle" finds "twinkling" and "hotter" finds "hottest". */
const STEM_LETTERS = 5;
const WORD_MIN_LETTERS = 4;

/** The next level down, whose text is simpler: the teen's for an adult, the child's for a teen. */
const SIMPLER: Readonly<Record<Level, Level | undefined>> = {
  child: undefined,
  teen: 'child',
  adult: 'teen',
};

/** The terms a text is compared by: word stems, or in Chinese and Japanese pairs of Han or katakana. */
function termsOf(text: string, language: CompiledLocale): Set<string> {
  const { units } = unitsOf(text, language.matching);
  if (language.matching.mode === 'words')
    return new Set(
      units.filter((unit) => unit.length >= WORD_MIN_LETTERS).map((unit) => unit.slice(0, STEM_LETTERS)),
    );
  const pairs = new Set<string>();
  units.forEach((unit, index) => {
    const next = units[index + 1];
    if (next && /[\p{Script=Han}\p{Script=Katakana}]/u.test(unit + next)) pairs.add(unit + next);
  });
  return pairs;
}

/** Every lesson text of a topic: its levels' explanations and "more", its facts at every level. */
function textsOf(topic: CompiledTopic, level: Level): string[] {
  const levels = [level, ...LEVELS.filter((other) => other !== level)];
  return [
    ...levels.flatMap((name) => [topic.levels[name].explanation, topic.levels[name].more]),
    ...levels.flatMap((name) => topic.facts.map((fact) => fact.text[name])),
  ];
}

interface SentenceIndex {
  /** How rare each term is among all the language's lesson sentences: log(sentences / sentences with it). */
  readonly rarity: ReadonlyMap<string, number>;
}

const indexes = new WeakMap<CompiledLocale, SentenceIndex>();

function sentenceIndex(language: CompiledLocale): SentenceIndex {
  const known = indexes.get(language);
  if (known) return known;
  const sentences = [
    ...new Set(language.topics.flatMap((topic) => textsOf(topic, 'teen').flatMap(sentencesOf))),
  ];
  const counts = new Map<string, number>();
  for (const sentence of sentences)
    for (const term of termsOf(sentence, language)) counts.set(term, (counts.get(term) ?? 0) + 1);
  const rarity = new Map([...counts].map(([term, count]) => [term, Math.log(sentences.length / count)]));
  const index = { rarity };
  indexes.set(language, index);
  return index;
}

/**
 * Whether a text names one of the check's accepted answers (and does not negate it), read as an answer
 * would be: 「惑星」 names a planet, not the 「星」 (star) inside it.
 */
export function givesAway(text: string, check: CompiledCheck, language: CompiledLocale): boolean {
  return readAnswer(text, check.options, language.judging, language.matching).right;
}

/**
 * The sentence of the topic's lessons that best answers the learner's words, if one shares a rare word
 * with them (the learner's level first); sentences that would give the answer of `withhold` away are
 * passed over.
 */
export function answeringSentence(
  message: string,
  topic: CompiledTopic,
  language: CompiledLocale,
  level: Level,
  withhold?: CompiledCheck,
): string | undefined {
  const { rarity } = sentenceIndex(language);
  // The topic's own name is in most of its sentences: it says which topic, not which sentence (in
  // Chinese and Japanese, no pair holding one of its characters: 「在火」 and 「星上」 are Mars's too).
  const name = termsOf(topic.text.name, language);
  const nameCharacters = new Set([...topic.text.name]);
  const asked = [...termsOf(message, language)].filter(
    (term) =>
      !name.has(term) &&
      (language.matching.mode === 'words' || ![...term].some((character) => nameCharacters.has(character))),
  );
  let best: { sentence: string; score: number } | undefined;
  for (const sentence of textsOf(topic, level).flatMap(sentencesOf)) {
    if (withhold && givesAway(sentence, withhold, language)) continue;
    const terms = termsOf(sentence, language);
    const score = asked.reduce((sum, term) => sum + (terms.has(term) ? (rarity.get(term) ?? 0) : 0), 0);
    if (score >= SPECIFIC && (!best || score > best.score)) best = { sentence, score };
  }
  return best?.sentence;
}

/**
 * The answer to a question of the learner's own about the open check's topic: the fact that answers it
 * (unless it gives the check's answer away), else the lesson sentence that does.
 */
export function answerOwnQuestion(
  message: string,
  topic: CompiledTopic,
  level: Level,
  language: CompiledLocale,
  open: CompiledCheck,
): string | undefined {
  const { fact } = chooseFact(message, topic, language);
  const said = fact ? factText(fact, level) : undefined;
  if (said && !givesAway(said, open, language)) return said;
  return answeringSentence(message, topic, language, level, open);
}

/**
 * The open question's lesson again in other words, for a learner who asked for help: what they asked
 * about if a sentence answers it; a named mistake's hint; then by level, the simpler text first. Texts
 * that give the answer away, and texts already said since the question was asked, are passed over.
 */
export function explainAgain(
  message: string,
  topic: CompiledTopic,
  check: CompiledCheck,
  level: Level,
  language: CompiledLocale,
  said: readonly string[],
  mistake?: number,
): string {
  const { text } = check;
  const lesson = topic.levels[check.level];
  const mistakeHints = text.mistakes.map((entry) => entry.hint);
  const named = mistake === undefined ? undefined : mistakeHints[mistake];
  const simpler = SIMPLER[check.level];
  const byLevel =
    simpler === undefined
      ? [...mistakeHints.slice(0, 1), text.hint, lesson.more, lesson.explanation]
      : [topic.levels[simpler].explanation, ...mistakeHints.slice(0, 1), text.hint, lesson.more];
  const candidates = [
    ...(named ? [named] : []),
    answeringSentence(message, topic, language, check.level, check),
    ...byLevel,
  ].filter((candidate): candidate is string => candidate !== undefined);
  const fresh = candidates.filter(
    (candidate) =>
      !givesAway(candidate, check, language) &&
      !said.some((turn) => turn.includes(candidate)) &&
      candidate !== lessonText(topic, level),
  );
  return fresh[0] ?? text.hint;
}

/**
 * The answer to a question about another topic, asked while a check question is open: the fact that
 * answers it and that topic's lesson at the learner's level; without a fact, the lesson and the sentence
 * that answers what they asked when the lesson lacks it (one that does not give the open check's answer
 * away).
 */
export function answerAside(
  message: string,
  topic: CompiledTopic,
  level: Level,
  language: CompiledLocale,
  open: CompiledCheck,
): string {
  const lesson = lessonText(topic, level);
  const { fact } = chooseFact(message, topic, language);
  // Another topic's lesson is said whole, so its fact is too: "how far is the Moon?" is answered in km.
  if (fact) {
    const said = factText(fact, level);
    return joinSentences(language, said, lessonAfter(said, lesson, language));
  }
  const sentence = answeringSentence(message, topic, language, level, open);
  return sentence && !lesson.includes(sentence) ? `${lesson}${language.joiner}${sentence}` : lesson;
}
