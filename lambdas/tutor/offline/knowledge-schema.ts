/**
 * The shape of the offline tutor's lesson files (knowledge/topics.json and knowledge/<locale>.json, whose
 * format knowledge/README.md describes), checked with zod when a language is first used, so a broken data
 * file fails loudly in tests and in the logs instead of in front of a learner (docs/behaviour.md §15.9).
 */
import { z } from 'zod';
import { INIT_MARKER, LOCALES, type Locale } from '../../contract/languages';
import { IMAGE_PROMPT_MAX_CHARS } from '../../contract/limits';
import { LEVELS } from '../../contract/teaching';
import { judgingSchema, phrases } from './judging-schema';

const TOPIC_ID = /^[a-z][a-z0-9-]*$/;

/**
 * The shapes a learner's question takes (docs/behaviour.md §15.11): the specific ones first (how far …
 * how many), then the general ones. A fact answers one of them.
 */
export const SHAPES = [
  'how-far',
  'how-big',
  'how-hot',
  'how-old',
  'how-long',
  'how-fast',
  'how-many',
  'what-if',
  'can-we',
  'why',
  'what-is',
] as const;
export type Shape = (typeof SHAPES)[number];

/** The shapes that ask for one figure or fact; the others (what if, can we, why, what is) are general. */
export const SPECIFIC_SHAPES: ReadonlySet<Shape> = new Set(SHAPES.slice(0, SHAPES.indexOf('what-if')));

/** The ten areas of the lessons (docs/behaviour.md §15.8). */
export const AREAS = [
  'sizes-and-distances',
  'light-and-sky',
  'stars',
  'planets',
  'small-bodies',
  'other-worlds',
  'space-travel',
  'gravity-and-orbits',
  'universe',
  'how-we-know',
] as const;

/** Spoken text: no markdown (it is read aloud), never the init marker, no template holes left. */
const spokenText = (min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((text) => !/[*#|`_[\]<>{}]/.test(text), 'spoken text must not contain markdown or braces')
    .refine((text) => !text.includes(INIT_MARKER), `must not contain ${INIT_MARKER}`);

/** A text with the named `{placeholders}`, each exactly once, and otherwise spoken text. */
const template = (placeholders: readonly string[], min: number, max: number) =>
  z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine(
      (text) => placeholders.every((name) => text.split(`{${name}}`).length === 2),
      `must contain ${placeholders.map((name) => `{${name}}`).join(' and ')} exactly once`,
    )
    .refine(
      (text) =>
        !/[*#|`_[\]<>]/.test(text.replace(/\{[a-z]+\}/g, '')) &&
        !/[{}]/.test(text.replace(/\{[a-z]+\}/g, '')),
      'must not contain markdown or unknown placeholders',
    )
    .refine((text) => !text.includes(INIT_MARKER), `must not contain ${INIT_MARKER}`);

/**
 * Quiz turns end with the question, so the question still open is read from the end of Astro's last
 * turn (docs/behaviour.md §17.2).
 */
function endsWithQuestion(text: string): boolean {
  return text.trimEnd().endsWith('{question}');
}

const sourceSchema = z.strictObject({
  /** Who published it and what it is: "NASA Science, Moon facts". */
  name: z.string().trim().min(3).max(120),
  url: z
    .string()
    .trim()
    .regex(/^https?:\/\/[^\s]+$/, 'a web address'),
});

export const topicIndexSchema = z
  .object({
    topics: z
      .array(
        z.strictObject({
          id: z.string().regex(TOPIC_ID),
          /** Which of the ten areas the topic belongs to; suggestions near a topic come from its area. */
          area: z.enum(AREAS),
          /** 1..3: breaks ties between equally good matches; 3-topics are suggested to a lost learner. */
          priority: z.number().int().min(1).max(3),
          /** The topic offered next after the learner has heard everything about this one. */
          next: z.string().regex(TOPIC_ID),
          /** Always English: the offline sketcher and the picture models read it. */
          imagePrompt: z
            .string()
            .trim()
            .min(10)
            .max(IMAGE_PROMPT_MAX_CHARS)
            .regex(/^[\x20-\x7e]+$/, 'picture prompts are plain English ASCII')
            .optional(),
          /** Where every figure and fact of the topic was checked (docs/behaviour.md §15.8). */
          sources: z.array(sourceSchema).min(1),
        }),
      )
      .min(70),
  })
  .superRefine((index, context) => {
    const ids = index.topics.map((topic) => topic.id);
    ids.forEach((id, position) => {
      if (ids.indexOf(id) !== position)
        context.addIssue({ code: 'custom', path: ['topics', position, 'id'], message: `duplicate id ${id}` });
    });
    index.topics.forEach((topic, position) => {
      if (!ids.includes(topic.next) || topic.next === topic.id)
        context.addIssue({
          code: 'custom',
          path: ['topics', position, 'next'],
          message: `next must name another topic, got ${topic.next}`,
        });
    });
  });

export type TopicIndex = z.output<typeof topicIndexSchema>;
export type TopicEntry = TopicIndex['topics'][number];

/**
 * A direct answer to one shape of question (docs/behaviour.md §15.11): its first sentence answers, with the
 * number and the unit the language uses. `adult` is there where an adult deserves the precise figure or
 * how we know it; otherwise an adult hears the teen text.
 */
const factSchema = z.strictObject({
  shape: z.enum(SHAPES),
  /** Words that must also be in the question for this fact to be chosen ("light", "day on the moon"). */
  keywords: phrases(1).optional(),
  child: spokenText(10, 300),
  teen: spokenText(10, 360),
  adult: spokenText(10, 420).optional(),
});

/** The check for understanding that ends a level's lesson (docs/behaviour.md §17.2). */
const checkSchema = z.strictObject({
  /** One short question whose answer is a word or short phrase, asking only what the level's text taught. */
  question: spokenText(5, 160).refine((text) => /[?？؟]$/u.test(text), 'a question ends with ?'),
  /** Accepted answers as keywords, matched like topic keywords: any one named (and not negated) is right. */
  answers: phrases(1),
  /**
   * The wrong options and common misconceptions, each with the words learners use for it and a hint
   * that speaks to that mistake ("a planet" → planets only reflect light). Naming one is wrong, even
   * beside an accepted answer that it negates ("a planet, not a star").
   */
  mistakes: z.array(z.strictObject({ says: phrases(1), hint: spokenText(10, 240) })).min(1),
  /** A nudge toward the answer that does not give it away. */
  hint: spokenText(5, 240),
  /** One sentence giving the answer and why, said after a second wrong try. */
  answer: spokenText(10, 300),
});

/** One level's lesson: its own explanation, "more", check and hints (docs/behaviour.md §17.1). */
const levelSchema = z.strictObject({
  /** 2–4 short spoken sentences at the level. */
  explanation: spokenText(20, 480),
  /** What Astro adds when the learner asks for more. */
  more: spokenText(20, 480),
  check: checkSchema,
});

const localizedTopicSchema = z.strictObject({
  /** How the topic is named inside a sentence ("the Sun", "black holes"), used in suggestions. */
  name: z.string().trim().min(1).max(60),
  /** The learner's words for the topic, everyday words included; folded before matching. */
  keywords: z.array(z.string().trim().min(1).max(40)).min(2),
  /** Vague words ("planet", "space") that count only when no topic's own keywords matched. */
  broadKeywords: z.array(z.string().trim().min(1).max(40)).default([]),
  /** Direct answers to the questions learners ask about the topic, most specific first within a shape. */
  facts: z.array(factSchema),
  levels: z.strictObject({ child: levelSchema, teen: levelSchema, adult: levelSchema }),
});

export const localeKnowledgeSchema = z.strictObject({
  locale: z.enum(LOCALES),
  /** `words`: tokens split on word boundaries; `characters`: substring matching (Chinese, Japanese). */
  matching: z.strictObject({
    mode: z.enum(['words', 'characters']),
    /** Clitics glued to the front of a word (Arabic al-, wa-, bi-; Hebrew ha-, be-, le-…). */
    prefixes: z.array(z.string().min(1).max(4)),
    /** Inflection endings accepted after a keyword's last word (plural -s, German -en…). */
    suffixes: z.array(z.string().min(1).max(4)),
  }),
  /** How suggested topics are listed: "a, b or c". */
  list: z.strictObject({ separator: z.string().min(1).max(5), last: z.string().min(1).max(8) }),
  /** Astro introduces itself by name and asks what the learner wants to explore. */
  greeting: spokenText(20, 400).refine(
    (text) =>
      text.includes('Astro') ||
      text.includes('أسترو') ||
      text.includes('אסטרו') ||
      text.includes('阿斯特罗') ||
      text.includes('アストロ'),
    'the greeting names Astro',
  ),
  /** Said when nothing matched; `{topics}` becomes a few suggested topic names. */
  notUnderstood: template(['topics'], 20, 400),
  /** Said when the learner declines ("no"); `{topics}` becomes a few suggested topic names. */
  declined: template(['topics'], 20, 400),
  /** The "more" reply: `{more}` is the topic's more text, `{next}` the name of the topic offered next. */
  continuation: template(['more', 'next'], 10, 400),
  /**
   * Said when Astro knows the topic but has no fact for what was asked, before the lesson: `{topic}` is
   * the topic's name, `{topics}` the nearest topics (docs/behaviour.md §15.12).
   */
  noFact: template(['topic', 'topics'], 20, 400),
  /** A question that is not about space: kind, and `{topics}` to explore instead. */
  offTopic: template(['topics'], 20, 400),
  /** A learner who is sad, lonely or afraid: kind, names who can help, then `{topics}` (calm ones). */
  sad: template(['topics'], 20, 480),
  /** A request that could hurt someone: declined kindly, then `{topics}`. */
  unsafe: template(['topics'], 20, 480),
  /** How a sad, lonely or frightened learner says so ("I feel sad", "nobody plays with me"). */
  sadWords: phrases(5),
  /** Requests that could hurt someone ("make a bomb", "a joke about my teacher"). */
  unsafeWords: phrases(5),
  /**
   * Words that put a risky thing in the learner's own hands ("at home", "how do I make"): a risky
   * word in a question about a space topic ("do rockets use petrol?") is unsafe only beside one of them
   * (docs/behaviour.md §15.13).
   */
  homeWords: phrases(3),
  /** Phrases meaning "tell me more", "yes", "continue", "go on". */
  moreWords: phrases(4),
  /** Hello, hi, good morning: answered with the greeting when no topic is named. */
  helloWords: phrases(2),
  /** No, no thanks, not really: answered with a few other topics to explore. */
  noWords: phrases(2),
  /** "Quiz me", "test me"…: start a three-question quiz (docs/behaviour.md §17.3). */
  quizWords: phrases(4),
  /** "I don't know", "no idea"…: a try that gets the hint, never mistaken for an answer. */
  dontKnowWords: phrases(3),
  /** Said when the learner's answer is right. */
  checkCorrect: spokenText(3, 120),
  /** Said after a first wrong try; the check question follows it. */
  checkTryAgain: template(['hint'], 10, 200),
  /** Said after a second wrong try: `{answer}` is the topic's answer sentence. */
  checkReveal: template(['answer'], 5, 120),
  /** A right answer to a question already answered right in this conversation: praised, no second star. */
  checkCorrectAgain: spokenText(3, 120),
  /** Both options named: no try used, the learner picks one. Ends with the question. */
  checkPickOne: template(['question'], 10, 300).refine(endsWithQuestion, 'ends with {question}'),
  /** Help asked for: `{text}` says it again in other words, then the same question. */
  checkExplain: template(['text', 'question'], 10, 800).refine(endsWithQuestion, 'ends with {question}'),
  /** A question of the learner's own mid-check: `{text}` answers it, then back to the open question. */
  checkAside: template(['text', 'question'], 10, 800).refine(endsWithQuestion, 'ends with {question}'),
  /** Opens a quiz: `{topics}` lists the quiz's topics; the first question ends it. */
  quizStart: template(['topics', 'question'], 20, 300).refine(endsWithQuestion, 'ends with {question}'),
  /** Asks the next quiz question, which ends it. */
  quizNext: template(['question'], 5, 120).refine(endsWithQuestion, 'ends with {question}'),
  /** Ends a quiz: `{score}` right out of `{total}`, then the recap. */
  quizScore: template(['score', 'total', 'recap'], 10, 300),
  /** The quiz's one-sentence recap: `{topics}` lists its topics. */
  quizRecap: template(['topics'], 10, 200),
  /** How the language's learners answer: negation, both, help, their own questions (§17.2). */
  judging: judgingSchema,
  /** The phrases that ask each shape of question ("how far", "a quelle distance", 多远). */
  shapes: z.strictObject(
    Object.fromEntries(SHAPES.map((shape) => [shape, phrases(1)])) as Record<
      Shape,
      ReturnType<typeof phrases>
    >,
  ),
  topics: z.record(z.string().regex(TOPIC_ID), localizedTopicSchema),
});

export type LocaleKnowledge = z.output<typeof localeKnowledgeSchema>;
export type LocalizedTopic = z.output<typeof localizedTopicSchema>;
export type LevelText = z.output<typeof levelSchema>;
export type CheckText = z.output<typeof checkSchema>;
export type FactText = z.output<typeof factSchema>;

/** The levels a lesson is written for, in order from the simplest. */
export const LESSON_LEVELS = LEVELS;

/** Parses the topic index; throws an Error naming the file and field on the first problems found. */
export function parseTopicIndex(raw: unknown): TopicIndex {
  return parseFile('topics.json', topicIndexSchema, raw);
}

/**
 * Parses one language's lesson file and checks it against the index: it is for its locale and covers
 * exactly the index's topics. Throws an Error naming the file and field on the first problems found.
 */
export function parseLanguage(index: TopicIndex, raw: unknown, locale: Locale): LocaleKnowledge {
  const file = `${locale}.json`;
  const knowledge = parseFile(file, localeKnowledgeSchema, raw);
  if (knowledge.locale !== locale) throw new Error(`${file}: locale is ${knowledge.locale}`);
  const ids = index.topics.map((topic) => topic.id);
  const missing = ids.filter((id) => !(id in knowledge.topics));
  const unknown = Object.keys(knowledge.topics).filter((id) => !ids.includes(id));
  if (missing.length > 0) throw new Error(`${file}: missing topics ${missing.join(', ')}`);
  if (unknown.length > 0) throw new Error(`${file}: unknown topics ${unknown.join(', ')}`);
  return knowledge;
}

/**
 * Parses every data file and checks they agree (the tests and tools read them all at once).
 */
export function parseKnowledge(
  rawIndex: unknown,
  rawLocales: Readonly<Record<Locale, unknown>>,
): { index: TopicIndex; locales: Readonly<Record<Locale, LocaleKnowledge>> } {
  const index = parseTopicIndex(rawIndex);
  const locales = {} as Record<Locale, LocaleKnowledge>;
  for (const locale of LOCALES) locales[locale] = parseLanguage(index, rawLocales[locale], locale);
  return { index, locales };
}

function parseFile<S extends z.ZodType>(file: string, schema: S, raw: unknown): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.map(String).join('.')}: ${issue.message}`,
  );
  throw new Error(`${file}: ${problems.slice(0, 5).join('; ')}`);
}
