/**
 * Reply signatures and picture tickets (docs/behaviour.md §12.2, §12.4): HMAC-SHA256 under the server's key,
 * each kind with its own label so a signature can never pass as a ticket or the other way round. Checks are
 * constant-time and accept the current or the previous key (a rotation in progress). A reply's signature
 * is bound to its conversation, its position there and an expiry; a ticket to its prompt and an expiry.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TrustKeys } from './trust-keys';

const VERSION = 'v1';
/** Reply signatures bound to their conversation and place (docs/behaviour.md §12.2). */
const REPLY_VERSION = 'v2';

/** How long a picture ticket is good for: the web app asks for the picture right after the reply. */
export const TICKET_LIFETIME_MS = 10 * 60 * 1000;
/** How long a reply's signature is good for: longer than any conversation, shorter than a replay campaign. */
export const REPLY_SIGNATURE_LIFETIME_MS = 24 * 60 * 60 * 1000;

function mac(key: Buffer, label: string, ...parts: string[]): string {
  const hmac = createHmac('sha256', key);
  hmac.update(`astro/${label}/${VERSION}`);
  // Each part is length-prefixed, so no two different part lists hash the same text.
  for (const part of parts) hmac.update(`\n${Buffer.byteLength(part)}:${part}`);
  return hmac.digest('base64url');
}

function sameText(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function keysOf(keys: TrustKeys): Buffer[] {
  return keys.previous ? [keys.current, keys.previous] : [keys.current];
}

/** True when any key makes `given` the MAC of `parts`; every key is compared, whichever matches. */
function matchesAnyKey(keys: TrustKeys, given: string, label: string, ...parts: string[]): boolean {
  let valid = false;
  for (const key of keysOf(keys)) valid = sameText(mac(key, label, ...parts), given) || valid;
  return valid;
}

/**
 * Where a reply stands: its conversation (the UUID in lower case, whatever case the web sent) and its
 * position there, counting the learner's messages and Astro's replies from 0, the opening message not
 * counted (docs/behaviour.md §12.2).
 */
export interface ReplyPlace {
  readonly conversationId: string;
  readonly position: number;
}

/**
 * `v2.<position, base 36>.<expiry in seconds, base 36>.<mac>` over the conversation, the position, the
 * expiry and exactly the reply text the learner received.
 */
export function signReply(keys: TrustKeys, place: ReplyPlace, response: string, now: number): string {
  const position = place.position.toString(36);
  const expiry = Math.ceil((now + REPLY_SIGNATURE_LIFETIME_MS) / 1000).toString(36);
  const conversation = place.conversationId.toLowerCase();
  return `${REPLY_VERSION}.${position}.${expiry}.${mac(keys.current, 'reply', conversation, position, expiry, response)}`;
}

/** What a reply signature says of its turn: valid here; from elsewhere (forged); moved; expired. */
export type SignatureCheck =
  | { readonly verdict: 'valid'; readonly position: number }
  | { readonly verdict: 'moved'; readonly position: number }
  | { readonly verdict: 'missing' | 'malformed' | 'forged' | 'expired' };

/**
 * Checks a turn's signature against its conversation and its text. The position it was signed for is
 * read from the signature (so a history cut at its start can be placed, docs/behaviour.md §12.3); a
 * MAC that does not match (another conversation, another text, another key) is forged.
 */
export function checkReplySignature(
  keys: TrustKeys,
  conversationId: string,
  response: string,
  signature: string | undefined,
  now: number,
): SignatureCheck {
  if (signature === undefined || signature === '') return { verdict: 'missing' };
  const match = /^v2\.([0-9a-z]{1,6})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(signature);
  if (!match?.[1] || !match[2] || !match[3]) return { verdict: 'malformed' };
  const [, position, expiry, given] = match;
  if (!matchesAnyKey(keys, given, 'reply', conversationId.toLowerCase(), position, expiry, response)) {
    return { verdict: 'forged' };
  }
  const expiresAt = parseInt(expiry, 36) * 1000;
  // A signature from further ahead than its lifetime was not made by this code: refuse it too.
  if (expiresAt <= now || expiresAt > now + REPLY_SIGNATURE_LIFETIME_MS + 1000) return { verdict: 'expired' };
  return { verdict: 'valid', position: parseInt(position, 36) };
}

/** `v1.<expiry in seconds, base 36>.<mac>` over the expiry and exactly the prompt Astro suggested. */
export function issueTicket(keys: TrustKeys, prompt: string, now: number): string {
  const expiry = Math.ceil((now + TICKET_LIFETIME_MS) / 1000).toString(36);
  return `${VERSION}.${expiry}.${mac(keys.current, 'picture', expiry, prompt)}`;
}

export type TicketCheck = 'valid' | 'missing' | 'malformed' | 'expired' | 'forged';

/** Why a ticket does (not) let `prompt` be drawn at `now`; a mismatched prompt reads as forged. */
export function checkTicket(
  keys: TrustKeys,
  prompt: string,
  ticket: string | undefined,
  now: number,
): TicketCheck {
  if (ticket === undefined || ticket === '') return 'missing';
  const match = /^v1\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/.exec(ticket);
  if (!match?.[1] || !match[2]) return 'malformed';
  const [, expiry, given] = match;
  if (!matchesAnyKey(keys, given, 'picture', expiry, prompt)) return 'forged';
  const expiresAt = parseInt(expiry, 36) * 1000;
  // A ticket from further ahead than its lifetime was not made by this code: refuse it too.
  if (expiresAt <= now || expiresAt > now + TICKET_LIFETIME_MS + 1000) return 'expired';
  return 'valid';
}

/**
 * A well-formed ticket's identity and expiry, for spending it once (docs/behaviour.md §12.4): its MAC, which
 * no other ticket shares. Call only with a ticket `checkTicket` found valid.
 */
export function ticketIdentity(ticket: string): { readonly id: string; readonly expiresAtMs: number } {
  const [, expiry = '0', id = ''] = ticket.split('.');
  return { id, expiresAtMs: parseInt(expiry, 36) * 1000 };
}
