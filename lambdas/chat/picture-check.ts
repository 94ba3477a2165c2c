/**
 * Picture prompts are checked before a ticket is issued for them (docs/behaviour.md §14.9): every provider's
 * prompt must be about the sky (`checkPictureSubject`), and a model's prompt also passes the Bedrock
 * Guardrail when one is configured (ApplyGuardrail: a guardrail on Converse does not inspect tool-call
 * arguments, which is where the prompt comes from). A refused prompt means a reply without a picture,
 * never an error: the reason is logged.
 */
import { ApplyGuardrailCommand } from '@aws-sdk/client-bedrock-runtime';
import type { TutorConfig } from '../config';
import { errorFields, log } from '../lib/log';
import { checkPictureSubject } from '../pictures/picture-subject';
import { GUARDRAIL_USD_PER_TEXT_UNIT } from '../spend/prices';
import type { Spending } from '../spend/spend-guard';
import { bedrockRuntimeClient } from '../upstream/bedrock-client';
import { deadline } from '../upstream/deadline';

/** ApplyGuardrail on one short prompt: well inside the reply's own deadline. */
export const PICTURE_CHECK_TIMEOUT_MS = 3000;

export type PictureVerdict =
  { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

/**
 * Checks one prompt; `guardrail: false` for prompts from the offline lessons, which are reviewed data. Without
 * the guardrail the check needs no network and answers at once (not a promise).
 */
export type PictureCheck = (
  prompt: string,
  options: { readonly guardrail: boolean; readonly spending?: Spending },
) => PictureVerdict | Promise<PictureVerdict>;

export function createPictureCheck(config: TutorConfig): PictureCheck {
  const { guardrail } = config;
  const client = guardrail ? bedrockRuntimeClient(config.bedrock) : undefined;
  const refused = (verdict: PictureVerdict): PictureVerdict => {
    if (!verdict.allowed) log.warn('picture prompt refused', { reason: verdict.reason });
    return verdict;
  };
  return (prompt, options) => {
    const subject = checkPictureSubject(prompt);
    if (!subject.allowed || !options.guardrail || !guardrail || !client) return refused(subject);
    return (async (): Promise<PictureVerdict> => {
      let verdict: PictureVerdict = subject;
      const limit = deadline(PICTURE_CHECK_TIMEOUT_MS);
      try {
        const answer = await client.send(
          new ApplyGuardrailCommand({
            guardrailIdentifier: guardrail.id,
            guardrailVersion: guardrail.version,
            // The prompt is what the picture model will read: checked as input (prompt attacks included).
            source: 'INPUT',
            content: [{ text: { text: prompt } }],
          }),
          { abortSignal: limit.signal },
        );
        // Content filters and denied topics, a text unit per 1,000 characters each (lambdas/spend/prices.ts).
        options.spending?.charge('chat', Math.ceil(prompt.length / 1000) * GUARDRAIL_USD_PER_TEXT_UNIT);
        if (answer.action !== 'NONE') verdict = { allowed: false, reason: 'guardrail' };
      } catch (error) {
        // Not knowing is not a yes: the reply goes on without its picture.
        log.error('picture check failed', { timedOut: limit.expired(), ...errorFields(error) });
        verdict = { allowed: false, reason: 'guardrail_unavailable' };
      } finally {
        limit.dispose();
      }
      return refused(verdict);
    })();
  };
}
