import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locale } from '#contract/languages';

/** A topic's check for a teen (the level the app starts at): what its lesson and the quiz ask. */
export interface TeenCheck {
  readonly question: string;
  readonly answers: readonly string[];
  readonly hint: string;
}

/** What the browser tests read of the offline tutor's lessons in one language. */
export interface Lessons {
  readonly quizWords: readonly string[];
  readonly checkTryAgain: string;
  readonly topics: Readonly<
    Record<string, { readonly levels: { readonly teen: { readonly check: TeenCheck } } }>
  >;
}

/** Each language's lessons once read: the files are over half a megabyte, and never change in a run. */
const read = new Map<Locale, Lessons>();

/** The offline tutor's lessons in one language (lambdas/tutor/offline/knowledge/<locale>.json). */
export function lessons(locale: Locale): Lessons {
  const known = read.get(locale);
  if (known) return known;
  const file = join(process.cwd(), 'lambdas', 'tutor', 'offline', 'knowledge', `${locale}.json`);
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Lessons;
  read.set(locale, parsed);
  return parsed;
}

/** The teen's check that a reply of the offline tutor ends with (a lesson's or the quiz's question). */
export function teenCheckEnding(reply: string, locale: Locale): TeenCheck | undefined {
  return Object.values(lessons(locale).topics)
    .map(({ levels }) => levels.teen.check)
    .find((check) => reply.trimEnd().endsWith(check.question));
}
