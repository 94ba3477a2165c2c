/**
 * Direct answers (docs/behaviour.md §15.11): which shapes of question a message asks ("how far", "why",
 * 多远), the fact of a topic that answers it, and the reply that says that fact first and then teaches
 * the lesson. Shared by the offline tutor and grounding for the model tutors.
 */
import type { Level } from '../../contract/teaching';
import { allOccurrences, unitsOf } from './message-units';
import type { CompiledFact, CompiledLocale, CompiledTopic } from './compiled-locale';
import { SHAPES, SPECIFIC_SHAPES, type Shape } from './knowledge-schema';
import { sentencesOf } from './sentences';

/**
 * The shapes the message asks, in the order they are answered: the specific ones (how far … how many)
 * before the general ones (what if, can we, why, what is); within each, the phrase that starts earliest,
 * then the longest. "What is the temperature on the Moon?" asks how hot first.
 */
export function shapesAsked(message: string, language: CompiledLocale): Shape[] {
  const said = unitsOf(message, language.shapeMatching);
  const found: { shape: Shape; start: number; length: number }[] = [];
  for (const shape of SHAPES) {
    const spans = allOccurrences(said, language.shapes.get(shape) ?? [], language.shapeMatching, true);
    if (spans.length === 0) continue;
    const start = Math.min(...spans.map((span) => span.start));
    const length = Math.max(...spans.filter((span) => span.start === start).map((span) => span.end - start));
    found.push({ shape, start, length });
  }
  const group = (shape: Shape) => (SPECIFIC_SHAPES.has(shape) ? 0 : 1);
  return found
    .sort((a, b) => group(a.shape) - group(b.shape) || a.start - b.start || b.length - a.length)
    .map((entry) => entry.shape);
}

/** Whether the message holds one of the fact's own keywords (with the language's clitics and endings). */
function namesFactWords(message: string, fact: CompiledFact, language: CompiledLocale): boolean {
  if (fact.keywords.length === 0) return false;
  const said = unitsOf(message, language.matching);
  return allOccurrences(said, fact.keywords, language.matching, true).length > 0;
}

export interface FactChoice {
  /** The fact that answers the message, if the topic has one. */
  readonly fact?: CompiledFact;
  /** The shapes asked, in the order they were tried. */
  readonly asked: readonly Shape[];
}

/**
 * The fact of `topic` that answers the message (§15.11): a fact whose own words are in the message and
 * whose shape was asked; else the first fact without words of its own of the first shape asked that has
 * one ("why is it cold in winter" asks why when how-cold has no fact); else a fact whose words are in
 * the message, whatever its shape; and when no shape was asked at all ("are aliens real"), the topic's
 * "what is" fact.
 */
export function chooseFact(message: string, topic: CompiledTopic, language: CompiledLocale): FactChoice {
  const asked = shapesAsked(message, language);
  const named = topic.facts.filter((fact) => namesFactWords(message, fact, language));
  const plain = topic.facts.filter((fact) => fact.keywords.length === 0);
  const fact =
    asked.flatMap((shape) => named.filter((candidate) => candidate.shape === shape))[0] ??
    asked.flatMap((shape) => plain.filter((candidate) => candidate.shape === shape))[0] ??
    named[0] ??
    (asked.length === 0 ? plain.find((candidate) => candidate.shape === 'what-is') : undefined);
  return { ...(fact ? { fact } : {}), asked };
}

/**
 * Whether the message asked something a fact should answer: any shape but "what is", which the lesson
 * itself answers (§15.12).
 */
export function wantsAFact(choice: FactChoice): boolean {
  return choice.asked.some((shape) => shape !== 'what-is');
}

/** Words of four letters or more (a sentence's content), or in Chinese and Japanese its character pairs. */
function contentOf(text: string, language: CompiledLocale): Set<string> {
  const { units } = unitsOf(text, language.matching);
  if (language.matching.mode === 'words') return new Set(units.filter((unit) => unit.length >= 4));
  return new Set(units.slice(1).map((unit, index) => `${units[index] ?? ''}${unit}`));
}

/** A lesson sentence this much covered by the fact already said is left out of the reply. */
const SAID_ALREADY = 0.7;

/**
 * The lesson's sentences that the fact has not already said: "It does not make its own light" is not
 * said twice after "No, the Moon does not make its own light".
 */
export function lessonAfter(fact: string, lesson: string, language: CompiledLocale): string {
  const said = contentOf(fact, language);
  const kept = sentencesOf(lesson).filter((sentence) => {
    const words = [...contentOf(sentence, language)];
    if (words.length === 0) return true;
    return words.filter((word) => said.has(word)).length / words.length < SAID_ALREADY;
  });
  return kept.join(language.joiner);
}

/** The fact for the learner's level. */
export function factText(fact: CompiledFact, level: Level): string {
  return fact.text[level];
}
