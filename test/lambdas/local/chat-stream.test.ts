import { request as httpRequest, type IncomingMessage } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '#lambdas/local/server';
import { sendJson, startFakeServer, type FakeServer } from '#support/loopback';
import { parseLines } from '#support/ndjson';
import { completion, completionChunk, sseAnswer, sseData, streamedCompletion } from '#support/openai-fake';
import { gate } from '#support/tutor-stream';
import { TEST_CONVERSATION_ID } from '#support/trust';

let dataDir: string;
let model: FakeServer;
let server: LocalServer;

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'astro-stream-'));
  model = await startFakeServer(sseAnswer(streamedCompletion(['Hi!'])));
  server = await startLocalServer({
    port: 0,
    dataDir,
    webRoot: dataDir,
    env: {
      ASTRO_MODEL: 'openai',
      OPENAI_BASE_URL: model.url,
      OPENAI_MODEL: 'fake-model',
      ASTRO_IMAGE_MODEL: 'offline',
      AZURE_SPEECH_KEY: '',
      SPEECH_SECRET_ID: '',
    },
  });
});
afterAll(async () => {
  await server.close();
  await model.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** POSTs a chat request and hands back the response as it arrives (a real socket, read piece by piece). */
function postChat(headers: Record<string, string>): Promise<IncomingMessage> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        hostname,
        port,
        path: '/api/chat',
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
      },
      resolve,
    );
    request.once('error', reject);
    request.end(
      JSON.stringify({
        userMessage: 'What is a star?',
        language: 'en-US',
        chatHistory: [],
        conversationId: TEST_CONVERSATION_ID,
      }),
    );
  });
}

/** Reads the response until it holds `count` whole lines (or ends). */
function readUntilLines(response: IncomingMessage, state: { text: string }, count: number): Promise<void> {
  const lines = () => state.text.split('\n').length - 1;
  if (lines() >= count) return Promise.resolve();
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      state.text += chunk.toString('utf8');
      if (lines() >= count) done();
    };
    const done = () => {
      response.off('data', onData);
      response.off('end', done);
      response.pause();
      resolve();
    };
    response.on('data', onData);
    response.once('end', done);
    response.resume();
  });
}

describe('the local server streaming /api/chat', () => {
  it('flushes each NDJSON line as it is written: the first arrives while the model is still writing', async () => {
    const rest = gate();
    model.respondWith(
      sseAnswer([
        sseData(completionChunk({ content: 'Stars are hot.' })),
        rest.wait,
        ...streamedCompletion([' The Sun is one.']),
      ]),
    );

    const response = await postChat({ Accept: 'application/x-ndjson' });
    const state = { text: '' };
    // The model sends the rest only after this line has reached the client: a buffered answer never would.
    await readUntilLines(response, state, 1);
    const first = parseLines(state.text);
    rest.open();
    await readUntilLines(response, state, 99);

    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/x-ndjson');
    expect(response.headers['x-astro-tutor']).toBe('openai');
    expect(response.headers['transfer-encoding']).toBe('chunked');
    expect(response.headers['content-security-policy']).toBeDefined();
    expect(first).toEqual([{ type: 'delta', text: 'Stars are hot.' }]);
    expect(parseLines(state.text)).toEqual([
      { type: 'delta', text: 'Stars are hot.' },
      { type: 'delta', text: ' The Sun is one.' },
      { type: 'done', response: 'Stars are hot. The Sun is one.', signature: expect.stringMatching(/^v2\./) },
    ]);
  });

  it('answers the same request as one JSON reply without the Accept header', async () => {
    model.respondWith((request, response) =>
      JSON.parse(request.body.toString()).stream
        ? sseAnswer(streamedCompletion(['Stars shine.']))(request, response)
        : sendJson(response, 200, completion({ content: 'Stars shine.' })),
    );

    const response = await fetch(`${server.url}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        userMessage: 'What is a star?',
        language: 'en-US',
        chatHistory: [],
        conversationId: TEST_CONVERSATION_ID,
      }),
    });

    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-astro-tutor')).toBe('openai');
    expect(await response.json()).toEqual({
      response: 'Stars shine.',
      signature: expect.stringMatching(/^v2\./),
    });
  });

  it('stops the model when the learner’s browser goes away mid-reply', async () => {
    let modelStopped!: () => void;
    const stopped = new Promise<void>((resolve) => (modelStopped = resolve));
    model.respondWith((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.write(sseData(completionChunk({ content: 'Stars are' })));
      response.once('close', modelStopped);
    });

    const response = await postChat({ Accept: 'application/x-ndjson' });
    await readUntilLines(response, { text: '' }, 1);
    response.destroy();

    await stopped;
  });
});
