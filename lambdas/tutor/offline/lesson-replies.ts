/**
 * The offline tutor's replies that teach a topic or offer some (docs/behaviour.md §15.11–§15.13, §17.1):
 * the answer to a question (the fact first, then the lesson at the learner's level and its check), the
 * lesson alone, "more", and a few topics suggested by name.
 */
import type { Level } from '../../contract/teaching';
import type { TutorReply } from '../tutor';
import { chooseFact, factText, lessonAfter, wantsAFact } from './answers';
import { continuationText } from './checks';
import {
  fill,
  joinSentences,
  lessonText,
  listOf,
  type CompiledLocale,
  type CompiledTopic,
} from './compiled-locale';
import { stableHash } from './matcher';

/** How many topics a not-understood reply suggests. */
const SUGGESTION_COUNT = 3;
/** How many nearby topics a reply without a fact offers. */
const NEAR_COUNT = 2;
/** The calm topics a sad or frightened learner is offered (§15.13). */
const CALM_AREA = 'light-and-sky';

/**
 * The answer to a question on `topic` (§15.11–§15.12): the fact that answers it, then the rest of the
 * lesson at the learner's level; or, when a fact was wanted and the topic has none, a kind "I don't know
 * that exactly" and the nearest topics, then the lesson. Always ends with the level's check question.
 */
export function answerQuestion(
  language: CompiledLocale,
  topic: CompiledTopic,
  message: string,
  level: Level,
): TutorReply {
  const lesson = lessonText(topic, level);
  const { question } = topic.levels[level].check.text;
  const choice = chooseFact(message, topic, language);
  const said = choice.fact ? factText(choice.fact, level) : undefined;
  const parts = said
    ? [said, lessonAfter(said, lesson, language)]
    : wantsAFact(choice)
      ? [
          fill(language.data.noFact, {
            topic: topic.text.name,
            topics: listOf(
              nearTopics(language, topic).map((near) => near.text.name),
              language.data.list,
            ),
          }),
          lesson,
        ]
      : [lesson];
  return {
    response: joinSentences(language, ...parts, question),
    ...(topic.imagePrompt ? { imagePrompt: topic.imagePrompt } : {}),
    check: { type: 'question' },
  };
}

/** The topic's lesson at the learner's level and its check question (§17.1–§17.2). */
export function lessonReply(language: CompiledLocale, topic: CompiledTopic, level: Level): TutorReply {
  return {
    response: joinSentences(language, lessonText(topic, level), topic.levels[level].check.text.question),
    ...(topic.imagePrompt ? { imagePrompt: topic.imagePrompt } : {}),
    check: { type: 'question' },
  };
}

/** The topics nearest to one Astro knows: the one it leads on to, then others of its area. */
export function nearTopics(language: CompiledLocale, topic: CompiledTopic): CompiledTopic[] {
  const next = language.byId.get(topic.next);
  const area = language.topics.filter((other) => other.area === topic.area && other.id !== topic.id);
  // The area's topics from this one on, wrapping round, so neighbours in the lessons come first.
  const after = [...area.filter((other) => other.order > topic.order), ...area];
  const near: CompiledTopic[] = [];
  for (const candidate of [...(next ? [next] : []), ...after])
    if (near.length < NEAR_COUNT && !near.some((chosen) => chosen.id === candidate.id)) near.push(candidate);
  return near;
}

export function continuation(language: CompiledLocale, topic: CompiledTopic, level: Level): TutorReply {
  return { response: continuationText(language, topic, level) };
}

/** The calm topics of the sky offered to a sad learner (§15.13). */
export function calmTopics(language: CompiledLocale): CompiledTopic[] {
  return language.topics.filter((topic) => topic.area === CALM_AREA && topic.priority >= 2);
}

/**
 * A reply built on `template` naming a few topics, chosen by a hash of the message from `pool` (by
 * default the most popular topics); `first`, when given, is named first.
 */
export function suggest(
  language: CompiledLocale,
  template: string,
  message: string,
  pool: readonly CompiledTopic[] = [],
  first?: CompiledTopic,
): TutorReply {
  const favourites = language.topics.filter((topic) => topic.priority === 3);
  const from =
    pool.length >= SUGGESTION_COUNT
      ? pool
      : favourites.length >= SUGGESTION_COUNT
        ? favourites
        : language.topics;
  const start = stableHash(message) % from.length;
  const chosen = Array.from(
    { length: Math.min(SUGGESTION_COUNT, from.length) },
    (_, offset) => from[(start + offset) % from.length],
  ).flatMap((topic) => (topic ? [topic] : []));
  const names = (first ? [first, ...chosen.filter((topic) => topic.id !== first.id)] : chosen)
    .slice(0, SUGGESTION_COUNT)
    .map((topic) => topic.text.name);
  return { response: fill(template, { topics: listOf(names, language.data.list) }) };
}
