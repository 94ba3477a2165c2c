/**
 * The spend guard through `npm start`'s server (docs/behaviour.md §12.18–§12.20), as an operator would see
 * it: an OpenAI-compatible model that reports its usage, priced with ASTRO_PRICE_*, a tiny daily cap. Once
 * reached, chat answers from the offline tutor, pictures are sketches (the paid picture model is not
 * called), speech tokens are refused with `over_budget`; and after a restart on the same data the day's
 * spend is remembered.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '#lambdas/local/server';
import { TINY_PNG } from '#support/bedrock-fake';
import { sendJson, startFakeServer, type FakeServer } from '#support/loopback';
import { completion, imagesAnswer } from '#support/openai-fake';
import { TEST_CONVERSATION_ID } from '#support/trust';

describe('the spend guard on the local server', () => {
  let root: string;
  let webRoot: string;
  let model: FakeServer;
  let sts: FakeServer;
  const chats = () => model.requests.filter((request) => request.url.endsWith('/chat/completions'));
  const pictures = () => model.requests.filter((request) => request.url.endsWith('/images/generations'));

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'astro-local-spend-'));
    webRoot = join(root, 'web');
    await mkdir(webRoot, { recursive: true });
    await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Astro</title>');
    model = await startFakeServer((request, response) =>
      request.url.endsWith('/images/generations')
        ? sendJson(response, 200, imagesAnswer(TINY_PNG))
        : sendJson(
            response,
            200,
            completion({
              content: 'A comet is a ball of ice and dust.',
              usage: { promptTokens: 2000, completionTokens: 200 },
            }),
          ),
    );
    sts = await startFakeServer((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/jwt' });
      response.end('eyJhbGciOiJIUzI1NiJ9.eyJ9.fake-token-0123456789');
    });
  });
  afterAll(async () => {
    await model.close();
    await sts.close();
    await rm(root, { recursive: true, force: true });
  });

  const start = () =>
    startLocalServer({
      port: 0,
      dataDir: join(root, 'data'),
      webRoot,
      env: {
        ASTRO_MODEL: 'openai',
        ASTRO_IMAGE_MODEL: 'openai',
        OPENAI_BASE_URL: `${model.url}/v1`,
        OPENAI_MODEL: 'probe-model',
        // 2,000 + 200 tokens at $1 / $4 per million: $0.0028 a reply.
        ASTRO_PRICE_INPUT_USD_PER_MTOK: '1',
        ASTRO_PRICE_OUTPUT_USD_PER_MTOK: '4',
        ASTRO_PRICE_PICTURE_USD: '0.01',
        ASTRO_DAILY_BUDGET_USD: '0.002',
        AZURE_SPEECH_KEY: 'k3y0f4zur3sp33chs3cr3tv4lu3aaaa1',
        AZURE_STS_BASE_URL: sts.url,
      },
    });
  const post = (server: LocalServer, path: string, body: unknown) =>
    fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const chat = (server: LocalServer) =>
    post(server, '/api/chat', {
      userMessage: 'Show me a comet',
      language: 'en-US',
      chatHistory: [],
      conversationId: TEST_CONVERSATION_ID,
    });

  it('answers from the model until the cap, then from the offline tutor, sketches and the browser’s speech', async () => {
    const server = await start();
    try {
      const paid = await chat(server);
      expect(paid.headers.get('x-astro-tutor')).toBe('openai');
      expect(chats()).toHaveLength(1);

      const capped = await chat(server);
      const reply = (await capped.json()) as { response: string; imagePrompt?: string; imageTicket?: string };
      expect(capped.status).toBe(200);
      expect(capped.headers.get('x-astro-tutor')).toBe('offline');
      expect(capped.headers.get('x-astro-spend-limit')).toMatch(/^(day|client)$/);
      expect(chats()).toHaveLength(1);

      // The offline lesson offers its picture; drawing it costs nothing and calls no paid model.
      expect(reply.imagePrompt).toBeDefined();
      const picture = await post(server, '/api/generateImage', {
        prompt: reply.imagePrompt,
        ticket: reply.imageTicket,
      });
      expect(picture.status).toBe(200);
      expect(picture.headers.get('x-astro-image-maker')).toBe('offline');
      expect(pictures()).toHaveLength(0);

      const token = await post(server, '/api/speechToken', {});
      expect(token.status).toBe(503);
      expect(((await token.json()) as { error: { code: string } }).error.code).toBe('over_budget');
      expect(sts.requests).toHaveLength(0);
    } finally {
      await server.close();
    }

    const restarted = await start();
    try {
      const after = await chat(restarted);
      expect(after.headers.get('x-astro-tutor')).toBe('offline');
      expect(chats()).toHaveLength(1);
    } finally {
      await restarted.close();
    }
  });
});
