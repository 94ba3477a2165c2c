/**
 * Reply signatures and picture tickets (docs/behaviour.md §12.2, §12.4): HMAC-SHA256 under the server's key,
 * each kind with its own label so a signature can never pass as a ticket or the other way round. Checks are
 * constant-time and accept the current or the previous key (a rotation in progress).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { TrustKeys } from './trust-keys';

const VERSION = 'v1';

/** How long a picture ticket is good for: the web app asks for the picture right after the reply. */
export const TICKET_LIFETIME_MS = 10 * 60 * 1000;

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

/** `v1.<mac>` over exactly the reply text the learner received. */
export function signReply(keys: TrustKeys, response: string): string {
  return `${VERSION}.${mac(keys.current, 'reply', response)}`;
}

export function isReplySignature(keys: TrustKeys, response: string, signature: string | undefined): boolean {
  if (signature === undefined || !signature.startsWith(`${VERSION}.`)) return false;
  const given = signature.slice(VERSION.length + 1);
  // Every key is compared, whichever matches, so the time taken says nothing about which one did.
  let valid = false;
  for (const key of keysOf(keys)) valid = sameText(mac(key, 'reply', response), given) || valid;
  return valid;
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
  let valid = false;
  for (const key of keysOf(keys)) valid = sameText(mac(key, 'picture', expiry, prompt), given) || valid;
  if (!valid) return 'forged';
  const expiresAt = parseInt(expiry, 36) * 1000;
  // A ticket from further ahead than its lifetime was not made by this code: refuse it too.
  if (expiresAt <= now || expiresAt > now + TICKET_LIFETIME_MS + 1000) return 'expired';
  return 'valid';
}
