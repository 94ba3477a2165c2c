/**
 * What every eval suite shares: where the case files are, which languages to run, and the chat handler
 * they are played through (the configured tutor: offline unless `ASTRO_MODEL` says otherwise, with that
 * provider's usual variables; docs/configuration.md).
 */
import { fileURLToPath } from 'node:url';
import { createChatHandler } from '#lambdas/chat/handler';
import { LOCALES, type Locale } from '#contract/languages';
import type { StreamingApiHandler } from '#lambdas/http/endpoint';
import { TEST_TRUST_SECRET } from '#support/trust';
import { readCaseSets, type CaseSets } from './cases';

/** test/eval, where `judging/` and `questions/` are. */
const DEFAULT_CASES = fileURLToPath(new URL('..', import.meta.url));

/**
 * The case files: `ASTRO_EVAL_CASES` names another folder holding `judging/` and `questions/` (a draft
 * set, a held-out set); `ASTRO_EVAL_LANGUAGES` (comma-separated locales) runs only those.
 */
export function caseSets(env: NodeJS.ProcessEnv = process.env): CaseSets {
  const only = env.ASTRO_EVAL_LANGUAGES?.split(',')
    .map((locale) => locale.trim())
    .filter((locale) => locale.length > 0);
  const unknown = only?.filter((locale) => !(LOCALES as readonly string[]).includes(locale)) ?? [];
  if (unknown.length > 0)
    throw new Error(`ASTRO_EVAL_LANGUAGES: not a language of Astro: ${unknown.join(', ')}`);
  return readCaseSets(
    env.ASTRO_EVAL_CASES && env.ASTRO_EVAL_CASES.length > 0 ? env.ASTRO_EVAL_CASES : DEFAULT_CASES,
    only ? new Set(only as Locale[]) : undefined,
  );
}

/**
 * The real `/api/chat` handler for the configured tutor. It signs with the test key, so the runner can
 * sign the dialogues' scripted Astro turns as the server would (test/eval/runner/play.ts); any other
 * signing key configured in the environment is set aside.
 */
export function evalChatHandler(env: NodeJS.ProcessEnv = process.env): StreamingApiHandler {
  return createChatHandler({
    ...env,
    TRUST_KEY: TEST_TRUST_SECRET,
    TRUST_KEY_FILE: undefined,
    TRUST_SECRET_ID: undefined,
  });
}

/** Which tutor answers, for the scorecard's title. */
export function tutorName(env: NodeJS.ProcessEnv = process.env): string {
  const model = env.ASTRO_MODEL ?? 'offline';
  if (model === 'bedrock') return `Bedrock (${env.BEDROCK_MODEL_ID ?? 'default model'})`;
  if (model === 'openai')
    return `OpenAI-compatible (${env.OPENAI_MODEL ?? 'model'} at ${env.OPENAI_BASE_URL ?? '?'})`;
  return 'offline tutor';
}
