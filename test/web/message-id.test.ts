import { randomFillSync } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newConversationId, nextLoadingId, nextMessageId } from '#web/conversation/message-id';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

afterEach(() => vi.unstubAllGlobals());

describe('message and conversation ids (docs/behaviour.md §3.2, §3.4)', () => {
  it('uses the timestamp, bumped so that messages in the same millisecond stay unique', () => {
    const now = Date.now() + 10_000;
    const first = nextMessageId(now);
    const second = nextMessageId(now);
    expect(first).toBe(now);
    expect(second).toBe(now + 1);
  });

  it('never goes backwards when the clock does', () => {
    const later = nextMessageId(Date.now() + 20_000);
    expect(nextMessageId(Date.now())).toBe(later + 1);
  });

  it('names image placeholders loading-<timestamp>', () => {
    expect(nextLoadingId()).toMatch(/^loading-\d+$/);
  });

  it('makes a random v4 UUID per conversation, also where crypto.randomUUID is missing', () => {
    expect(newConversationId()).toMatch(UUID_V4);
    vi.stubGlobal('crypto', {
      getRandomValues: (bytes: Uint8Array) => randomFillSync(bytes),
    });
    const ids = new Set(Array.from({ length: 50 }, () => newConversationId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(UUID_V4);
  });
});
