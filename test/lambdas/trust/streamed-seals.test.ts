import { describe, expect, it } from 'vitest';
import { createChatHandler } from '#lambdas/chat/handler';
import { createGenerateImageHandler } from '#lambdas/generate-image/handler';
import { API_ROUTES } from '#contract/routes';
import { checkTicket } from '#lambdas/trust/seals';
import { apiEvent, answersInJson, bodyOf } from '#support/events';
import { readLines } from '#support/ndjson';
import { signatureHolds, TEST_CONVERSATION_ID, testTrustKeys, TRUST_ENV } from '#support/trust';

/** A first message's reply: the message is at position 0, the reply at 1. */
const FIRST_REPLY = { conversationId: TEST_CONVERSATION_ID, position: 1 };
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// A streamed reply is sealed exactly as a whole one (docs/behaviour.md §12.2, §12.4): the picture line's
// ticket draws that picture, and the done line's signature covers the text the deltas spelled.
describe('seals on a streamed reply', () => {
  const chat = createChatHandler({ ...TRUST_ENV, ASTRO_MODEL: 'offline' });
  const ask = (userMessage: string) =>
    chat(
      apiEvent({
        path: API_ROUTES.chat,
        headers: { Accept: 'application/x-ndjson' },
        body: { userMessage, language: 'en-US', chatHistory: [], conversationId: TEST_CONVERSATION_ID },
      }),
    );

  it("signs the done line over the deltas' text, and tickets the picture line for exactly its prompt", async () => {
    const lines = await readLines(await ask('Show me Saturn'));
    const picture = lines.find((line) => line.type === 'picture');
    const done = lines.at(-1);
    if (picture?.type !== 'picture' || done?.type !== 'done') throw new Error('no picture or done line');
    const spelled = lines.map((line) => (line.type === 'delta' ? line.text : '')).join('');
    expect(done.response).toBe(spelled);
    expect(signatureHolds(done.signature, spelled, FIRST_REPLY)).toBe(true);
    expect(checkTicket(testTrustKeys, picture.imagePrompt, picture.imageTicket, Date.now())).toBe('valid');
    expect(checkTicket(testTrustKeys, `${picture.imagePrompt}!`, picture.imageTicket, Date.now())).not.toBe(
      'valid',
    );
  });

  it("draws the picture with the picture line's ticket", async () => {
    const pictureDir = await mkdtemp(join(tmpdir(), 'astro-seals-'));
    try {
      const lines = await readLines(await ask('Show me Saturn'));
      const picture = lines.find((line) => line.type === 'picture');
      if (picture?.type !== 'picture') throw new Error('no picture line');
      const draw = createGenerateImageHandler({ ...TRUST_ENV, IMAGE_DIR: pictureDir });
      const result = await draw(
        apiEvent({
          path: API_ROUTES.generateImage,
          body: { prompt: picture.imagePrompt, ticket: picture.imageTicket },
        }),
      );
      expect(result.statusCode).toBe(200);
      expect(bodyOf<{ imageUrl: string }>(result).imageUrl).toMatch(/^\/images\//);
    } finally {
      await rm(pictureDir, { recursive: true, force: true });
    }
  });

  it('seals the JSON reply the same way', async () => {
    const result = await answersInJson(chat)(
      apiEvent({
        path: API_ROUTES.chat,
        body: {
          userMessage: 'Show me Saturn',
          language: 'en-US',
          chatHistory: [],
          conversationId: TEST_CONVERSATION_ID,
        },
      }),
    );
    const reply = bodyOf<{ response: string; signature: string; imagePrompt: string; imageTicket: string }>(
      result,
    );
    expect(signatureHolds(reply.signature, reply.response, FIRST_REPLY)).toBe(true);
    expect(checkTicket(testTrustKeys, reply.imagePrompt, reply.imageTicket, Date.now())).toBe('valid');
  });
});
