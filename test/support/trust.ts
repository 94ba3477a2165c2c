import type { ChatTurn } from '#contract/schemas';
import { issueTicket, signReply } from '#lambdas/trust/seals';
import { parseTrustSecret } from '#lambdas/trust/trust-keys';

/** A signing key for tests, given to handlers as TRUST_KEY. */
export const TEST_TRUST_SECRET = JSON.stringify({ current: 'test-signing-key-0123456789abcdefghijklmnop' });
export const TRUST_ENV = { TRUST_KEY: TEST_TRUST_SECRET } as const;
export const testTrustKeys = parseTrustSecret(TEST_TRUST_SECRET);

/** The ticket the chat handler would have issued for `prompt` at `now`. */
export const ticketFor = (prompt: string, now = Date.now()) => issueTicket(testTrustKeys, prompt, now);

/** An assistant turn as the web app sends it back: with the signature its reply came with. */
export const signedTurn = (content: string): ChatTurn => ({
  role: 'assistant',
  content,
  signature: signReply(testTrustKeys, content),
});
