import type { ChatTurn } from '#contract/schemas';
import { checkReplySignature, issueTicket, signReply, type ReplyPlace } from '#lambdas/trust/seals';
import { parseTrustSecret, type TrustKeys } from '#lambdas/trust/trust-keys';

/** A signing key for tests, given to handlers as TRUST_KEY. */
export const TEST_TRUST_SECRET = JSON.stringify({ current: 'test-signing-key-0123456789abcdefghijklmnop' });
export const TRUST_ENV = { TRUST_KEY: TEST_TRUST_SECRET } as const;
export const testTrustKeys = parseTrustSecret(TEST_TRUST_SECRET);

/** The conversation tests talk in unless they need another. */
export const TEST_CONVERSATION_ID = '3f6c1b1e-8d2a-4c55-9e1f-7a0b2c4d6e81';
/** Another conversation, for replies replayed out of theirs. */
export const OTHER_CONVERSATION_ID = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';

/** The ticket the chat handler would have issued for `prompt` at `now`. */
export const ticketFor = (prompt: string, now = Date.now()) => issueTicket(testTrustKeys, prompt, now);

/**
 * An assistant turn as the web app sends it back: with the signature its reply came with, which binds it
 * to its conversation and its position there (the learner's messages and Astro's replies from 0).
 */
export const signedTurn = (
  content: string,
  position: number,
  options: { conversationId?: string; now?: number; keys?: TrustKeys } = {},
): ChatTurn => ({
  role: 'assistant',
  content,
  signature: signReply(
    options.keys ?? testTrustKeys,
    { conversationId: options.conversationId ?? TEST_CONVERSATION_ID, position },
    content,
    options.now ?? Date.now(),
  ),
});

/** A conversation as the web app sends it: every assistant turn signed for its place in it. */
export const signedHistory = (
  turns: readonly { readonly role: 'user' | 'assistant'; readonly content: string }[],
  options: { conversationId?: string; now?: number; first?: number } = {},
): ChatTurn[] =>
  turns.map((turn, index) =>
    turn.role === 'assistant' ? signedTurn(turn.content, (options.first ?? 0) + index, options) : turn,
  );

/** Whether `signature` is this test key's valid signature of `text` at `place` (now, or at `now`). */
export function signatureHolds(
  signature: string | undefined,
  text: string,
  place: ReplyPlace,
  options: { now?: number; keys?: TrustKeys } = {},
): boolean {
  const check = checkReplySignature(
    options.keys ?? testTrustKeys,
    place.conversationId,
    text,
    signature,
    options.now ?? Date.now(),
  );
  return check.verdict === 'valid' && check.position === place.position;
}
