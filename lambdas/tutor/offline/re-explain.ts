/**
 * What the offline tutor says when a learner asks for help with an open check question, or asks a
 * question of their own (docs/behaviour.md §17.2): the lesson's sentence that answers what they asked,
 * when one does; otherwise the lesson again in other words (the Young explorer's simpler text for a teen
 * or an adult, a hint that contrasts the options for a child); never a text that gives the answer away,
 * and never the same text twice in a row.
 */
import type { Level } from '../../contract/teaching';
import { readAnswer, unitsOf } from './answer-reading';
import { lessonText, type CompiledLocale, type CompiledTopic } from './compiled-locale';

/** A word of the learner's counts when it is this rare among all the lessons' sentences (1 in 20). */
const SPECIFIC = Math.log(20);
/** Words compared by their first letters, so "twinkle" finds "twinkling" and "hotter" finds "hottest". */
const STEM_LETTERS = 5;
const WORD_MIN_LETTERS = 4;

/** Sentences of a lesson text: Latin, Arabic and Hebrew punctuation then a space or the end; CJK stops. */
export function sentencesOf(text: string): string[] {
  return (text.match(/[^.!?؟。！？]+(?:[.!?؟](?=\s|$)|[。！？]|$)/gu) ?? [])
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence.length > 0);
}

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

interface SentenceIndex {
  /** How rare each term is among all the language's lesson sentences: log(sentences / sentences with it). */
  readonly rarity: ReadonlyMap<string, number>;
}

const indexes = new WeakMap<CompiledLocale, SentenceIndex>();

function sentenceIndex(language: CompiledLocale): SentenceIndex {
  const known = indexes.get(language);
  if (known) return known;
  const sentences = language.topics.flatMap((topic) =>
    [topic.text.explanation, topic.text.childExplanation, topic.text.more].flatMap(sentencesOf),
  );
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
export function givesAway(text: string, topic: CompiledTopic, language: CompiledLocale): boolean {
  return readAnswer(text, topic.options, language.judging, language.matching).right;
}

/**
 * The sentence of the topic's lessons that best answers the learner's words, if one shares a rare word
 * with them; sentences that would give the answer of `withhold` away are passed over.
 */
export function answeringSentence(
  message: string,
  topic: CompiledTopic,
  language: CompiledLocale,
  withhold?: CompiledTopic,
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
  for (const sentence of [topic.text.explanation, topic.text.childExplanation, topic.text.more].flatMap(
    sentencesOf,
  )) {
    if (withhold && givesAway(sentence, withhold, language)) continue;
    const terms = termsOf(sentence, language);
    const score = asked.reduce((sum, term) => sum + (terms.has(term) ? (rarity.get(term) ?? 0) : 0), 0);
    if (score >= SPECIFIC && (!best || score > best.score)) best = { sentence, score };
  }
  return best?.sentence;
}

/**
 * The open question's lesson again in other words, for a learner who asked for help: what they asked
 * about if a sentence answers it; a named mistake's hint; then by level, the simpler text first. Texts
 * that give the answer away, and texts already said since the question was asked, are passed over.
 */
export function explainAgain(
  message: string,
  topic: CompiledTopic,
  level: Level,
  language: CompiledLocale,
  said: readonly string[],
  mistake?: number,
): string {
  const { text } = topic;
  const mistakeHints = text.check.mistakes.map((entry) => entry.hint);
  const named = mistake === undefined ? undefined : mistakeHints[mistake];
  const byLevel =
    level === 'child'
      ? [...mistakeHints.slice(0, 1), text.check.hint, text.more, text.explanation]
      : [text.childExplanation, ...mistakeHints.slice(0, 1), text.check.hint, text.more];
  const candidates = [
    ...(named ? [named] : []),
    answeringSentence(message, topic, language, topic),
    ...byLevel,
  ].filter((candidate): candidate is string => candidate !== undefined);
  const fresh = candidates.filter(
    (candidate) =>
      !givesAway(candidate, topic, language) &&
      !said.some((turn) => turn.includes(candidate)) &&
      candidate !== lessonText(topic, level),
  );
  return fresh[0] ?? text.check.hint;
}

/**
 * The answer to a question about another topic, asked while a check question is open: that topic's
 * lesson at the learner's level, and the sentence that answers what they asked when the lesson lacks it.
 */
export function answerAside(
  message: string,
  topic: CompiledTopic,
  level: Level,
  language: CompiledLocale,
  open: CompiledTopic,
): string {
  const lesson = lessonText(topic, level);
  const sentence = answeringSentence(message, topic, language, open);
  return sentence && !lesson.includes(sentence) ? `${lesson}${language.joiner}${sentence}` : lesson;
}
