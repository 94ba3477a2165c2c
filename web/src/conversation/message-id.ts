import { LOADING_ID_PREFIX } from '#contract/limits';

let lastId = 0;

/**
 * A message id: the current timestamp (docs/behaviour.md §3.2), bumped when two messages land in the same
 * millisecond.
 */
export function nextMessageId(now: number = Date.now()): number {
  lastId = Math.max(now, lastId + 1);
  return lastId;
}

/** The id of a picture placeholder: `loading-<timestamp>`. */
export function nextLoadingId(now?: number): string {
  return `${LOADING_ID_PREFIX}${nextMessageId(now)}`;
}

/** A random UUID; crypto.randomUUID exists only in secure contexts, so fall back to getRandomValues. */
export function newConversationId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
