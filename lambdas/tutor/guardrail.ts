import type { GuardrailConfiguration } from '@aws-sdk/client-bedrock-runtime';
import type { TutorConfig } from '../config';

/**
 * The Bedrock Guardrail every Converse call carries (docs/behaviour.md §12.8), when the stack configured one:
 * content filters (prompt attacks included), topics kept off-limits for young learners and a
 * profanity filter. When it intervenes, Converse answers `stopReason: guardrail_intervened` and the
 * reply becomes 422 `content_filtered` (docs/design-notes.md, "Trust and cost": why not Astro speaking
 * the block message). Use it for `ConverseCommand` and `ConverseStreamCommand` alike:
 * `{ ...base, ...guardrailFields(config) }`.
 */
export function guardrailConfig(config: TutorConfig): GuardrailConfiguration | undefined {
  const { guardrail } = config;
  if (!guardrail) return undefined;
  // No trace: it would add the matched text to the answer, which is logged nowhere and needed by no one.
  return { guardrailIdentifier: guardrail.id, guardrailVersion: guardrail.version, trace: 'disabled' };
}

/** The request fields to spread into a Converse (or ConverseStream) request. */
export function guardrailFields(config: TutorConfig): { guardrailConfig?: GuardrailConfiguration } {
  const guardrail = guardrailConfig(config);
  return guardrail ? { guardrailConfig: guardrail } : {};
}
