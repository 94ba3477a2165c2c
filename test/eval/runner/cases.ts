/**
 * The teaching evals' case files (test/eval/README.md is their format, for the teachers who write them):
 * `judging/<locale>.yaml` (dialogues around a check question) and `questions/<locale>.yaml` (learner
 * questions with their key facts). Read with YAML's failsafe schema, so every value a teacher writes is
 * text: `learner: 88`, `learner: no` and `learner: yes` stay the learner's words, never a number or a
 * boolean. Each file is checked whole; a mistake is reported with the file and the field.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { LOCALES, type Locale } from '#contract/languages';
import { LEVELS } from '#contract/teaching';
import { SHAPES as FACT_SHAPES } from '#lambdas/tutor/offline/knowledge-schema';

/** What a teacher expects of Astro's reply to one learner turn (test/eval/README.md, "expect"). */
export const EXPECTS = [
  'question',
  'right',
  'wrong',
  'reveal',
  'pick-one',
  'explain',
  'hint',
  'answer',
  'quiz',
] as const;
export type Expect = (typeof EXPECTS)[number];

/** What a dialogue tests: the scorecard's rows by case kind. */
export const KINDS = [
  'right',
  'wrong',
  'misconception',
  'negation',
  'both',
  'clarify',
  'dont-know',
  'dont-get',
  'new-question',
  'quiz',
] as const;
export type Kind = (typeof KINDS)[number];

/** The shape of a learner question (the questions suite's columns). */
export const SHAPES = [...FACT_SHAPES, 'other', 'decline'] as const;

const ID = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const words = z.array(z.string().trim().min(1)).min(1);

const astroTurnSchema = z.strictObject({ astro: z.string().trim().min(1) });
const learnerTurnSchema = z.strictObject({
  learner: z.string().trim().min(1),
  expect: z.enum(EXPECTS).optional(),
  about: words.optional(),
  never: words.optional(),
});
const turnSchema = z.union([astroTurnSchema, learnerTurnSchema]);

const dialogueSchema = z.strictObject({
  id: z.string().regex(ID, 'lower case and dashes'),
  kind: z.enum(KINDS),
  level: z.enum(LEVELS).optional(),
  note: z.string().optional(),
  turns: z.array(turnSchema).min(1),
});

const uniqueIds = <T extends { id: string }>(items: readonly T[], context: z.RefinementCtx, path: string) => {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    if (seen.has(item.id))
      context.addIssue({ code: 'custom', path: [path, index, 'id'], message: `duplicate id ${item.id}` });
    seen.add(item.id);
  });
};

export const judgingFileSchema = z
  .strictObject({ language: z.enum(LOCALES), dialogues: z.array(dialogueSchema).min(1) })
  .superRefine((file, context) => uniqueIds(file.dialogues, context, 'dialogues'));

const questionSchema = z.strictObject({
  id: z.string().regex(ID, 'lower case and dashes'),
  ask: z.string().trim().min(1),
  shape: z.enum(SHAPES),
  level: z.enum(LEVELS).optional(),
  facts: z.array(words).optional(),
  source: z.string().optional(),
});

export const questionsFileSchema = z
  .strictObject({ language: z.enum(LOCALES), questions: z.array(questionSchema).min(1) })
  .superRefine((file, context) => uniqueIds(file.questions, context, 'questions'));

export type JudgingFile = z.output<typeof judgingFileSchema>;
export type Dialogue = z.output<typeof dialogueSchema>;
export type Turn = z.output<typeof turnSchema>;
export type LearnerTurn = z.output<typeof learnerTurnSchema>;
export type QuestionsFile = z.output<typeof questionsFileSchema>;
export type Question = z.output<typeof questionSchema>;

export const isLearnerTurn = (turn: Turn): turn is LearnerTurn => 'learner' in turn;

/** Parses one case file's text; throws an Error naming the file and the first few problems. */
export function parseCaseFile<S extends z.ZodType>(name: string, text: string, schema: S): z.output<S> {
  let raw: unknown;
  try {
    raw = parse(text, { schema: 'failsafe', uniqueKeys: true });
  } catch (error) {
    throw new Error(`${name}: not valid YAML: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.map(String).join('.')}: ${issue.message}`);
    throw new Error(`${name}: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/**
 * Every `<locale>.yaml` of one set's folder, in the order of LOCALES; a missing folder is an empty set.
 * A file must be named after the language it declares.
 */
function readSet<S extends z.ZodType<{ language: Locale }>>(
  folder: string,
  schema: S,
  only?: ReadonlySet<Locale>,
): z.output<S>[] {
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith('.yaml'));
  } catch {
    return [];
  }
  const files = names.map((name) => {
    const file = parseCaseFile(name, readFileSync(join(folder, name), 'utf8'), schema);
    if (basename(name, '.yaml') !== file.language)
      throw new Error(`${name}: declares language ${file.language}; name the file ${file.language}.yaml`);
    return file;
  });
  return files
    .filter((file) => !only || only.has(file.language))
    .sort((a, b) => LOCALES.indexOf(a.language) - LOCALES.indexOf(b.language));
}

export interface CaseSets {
  readonly judging: JudgingFile[];
  readonly questions: QuestionsFile[];
}

/** The two sets under `root` (test/eval by default): `judging/` and `questions/`. */
export function readCaseSets(root: string, only?: ReadonlySet<Locale>): CaseSets {
  return {
    judging: readSet(join(root, 'judging'), judgingFileSchema, only),
    questions: readSet(join(root, 'questions'), questionsFileSchema, only),
  };
}
