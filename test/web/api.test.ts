import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as ChatApi from '#web/api/chat';
import type * as FeedbackApi from '#web/api/feedback';
import type * as ImageApi from '#web/api/generate-image';
import type * as Http from '#web/api/http';
import type * as TokenApi from '#web/api/speech-token';
import { sendJson, startFakeServer, type FakeServer } from '#support/loopback';

// The web's API calls, with real fetch against a loopback server standing in for the API.
let server: FakeServer;
let api: {
  chat: typeof ChatApi;
  image: typeof ImageApi;
  feedback: typeof FeedbackApi;
  token: typeof TokenApi;
  http: typeof Http;
};

beforeAll(async () => {
  server = await startFakeServer((_request, response) => sendJson(response, 500, {}));
  vi.stubEnv('VITE_API_BASE', server.url);
  vi.resetModules();
  api = {
    chat: await import('#web/api/chat'),
    image: await import('#web/api/generate-image'),
    feedback: await import('#web/api/feedback'),
    token: await import('#web/api/speech-token'),
    http: await import('#web/api/http'),
  };
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await server.close();
});

/** The whole reply is what these tests read; the pieces are chat-stream.test.ts's concern. */
const IGNORE_PIECES = { onDelta: () => undefined, onPicture: () => undefined };

describe('the web API calls', () => {
  it('reads which spending limit sent the reply to the offline tutor, and nothing it does not know', async () => {
    const request = {
      userMessage: 'Hello',
      language: 'en-US' as const,
      chatHistory: [],
      conversationId: '3f6c1b1e-8d2a-4c55-9e1f-7a0b2c4d6e81',
    };
    for (const [header, expected] of [
      ['day', 'day'],
      ['Conversation', 'conversation'],
      ['client', 'client'],
      ['everything', undefined],
    ] as const) {
      server.respondWith((_request, response) =>
        sendJson(
          response,
          200,
          { response: 'Hi!' },
          { 'X-Astro-Tutor': 'offline', 'X-Astro-Spend-Limit': header },
        ),
      );
      const reply = await api.chat.streamChat(request, IGNORE_PIECES);
      expect([header, reply.spendLimit]).toEqual([header, expected]);
    }
  });

  it('posts the chat request as JSON to /api/chat and reads the reply and the offline-tutor header', async () => {
    server.respondWith((_request, response) =>
      sendJson(response, 200, { response: 'Hi!', imagePrompt: 'A comet' }, { 'X-Astro-Tutor': 'offline' }),
    );
    const reply = await api.chat.streamChat(
      {
        userMessage: 'Hello',
        language: 'en-US',
        chatHistory: [],
        conversationId: '3f6c1b1e-8d2a-4c55-9e1f-7a0b2c4d6e81',
      },
      IGNORE_PIECES,
    );
    expect(reply).toEqual({ response: 'Hi!', imagePrompt: 'A comet', offlineTutor: true });
    const request = server.requests.at(-1);
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/api/chat');
    expect(request?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request?.body.toString() ?? '')).toEqual({
      userMessage: 'Hello',
      language: 'en-US',
      chatHistory: [],
      conversationId: '3f6c1b1e-8d2a-4c55-9e1f-7a0b2c4d6e81',
    });
  });

  it('fails a non-OK chat answer with "API call failed: <status>" and the error code', async () => {
    server.respondWith((_request, response) =>
      sendJson(response, 502, { error: { code: 'upstream_error', message: 'secret upstream detail' } }),
    );
    const failure = await api.chat
      .streamChat(
        {
          userMessage: 'Hello',
          language: 'en-US',
          chatHistory: [],
          conversationId: '3f6c1b1e-8d2a-4c55-9e1f-7a0b2c4d6e81',
        },
        IGNORE_PIECES,
      )
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(api.http.ApiRequestError);
    expect(failure).toMatchObject({ message: 'API call failed: 502', status: 502, code: 'upstream_error' });
  });

  it('refuses a 200 chat answer without a response text', async () => {
    server.respondWith((_request, response) => sendJson(response, 200, { nope: true }));
    await expect(
      api.chat.streamChat(
        {
          userMessage: 'Hi',
          language: 'en-US',
          chatHistory: [],
          conversationId: '3f6c1b1e-8d2a-4c55-9e1f-7a0b2c4d6e81',
        },
        IGNORE_PIECES,
      ),
    ).rejects.toThrow(/Malformed/);
  });

  it('sends the prompt with its ticket, and nothing else', async () => {
    server.respondWith((_request, response) => sendJson(response, 200, { imageUrl: '/images/abc.svg' }));
    const request = { prompt: 'Mars', ticket: 'v1.abc.def', extra: 'dropped' };
    await api.image.generateImage(request);
    expect(JSON.parse(server.requests.at(-1)?.body.toString() ?? '')).toEqual({
      prompt: 'Mars',
      ticket: 'v1.abc.def',
    });
  });

  it('reads the image URL, and fails any problem as "Image generation failed"', async () => {
    server.respondWith((_request, response) => sendJson(response, 200, { imageUrl: '/images/abc.svg' }));
    expect(await api.image.generateImage({ prompt: 'Mars' })).toEqual({ imageUrl: '/images/abc.svg' });
    server.respondWith((_request, response) => sendJson(response, 200, { imageUrl: 'javascript:alert(1)' }));
    await expect(api.image.generateImage({ prompt: 'Mars' })).rejects.toThrow('Image generation failed');
    server.respondWith((_request, response) =>
      sendJson(response, 504, { error: { code: 'upstream_timeout', message: 'slow' } }),
    );
    await expect(api.image.generateImage({ prompt: 'Mars' })).rejects.toThrow('Image generation failed');
  });

  it('posts feedback and treats a non-OK answer as a failure', async () => {
    server.respondWith((_request, response) => sendJson(response, 201, { stored: true }));
    const feedback = {
      helpfulness: 5,
      clarity: 4,
      suggestion: '',
      conversationId: '6f1c0a3e-8d1b-4c0e-9a55-0b2d3c4e5f60',
      language: 'en-US' as const,
      chatHistory: [{ id: 1, text: 'Hi', sender: 'astro' as const }],
    };
    await api.feedback.sendFeedback(feedback);
    expect(JSON.parse(server.requests.at(-1)?.body.toString() ?? '')).toEqual(feedback);
    server.respondWith((_request, response) =>
      sendJson(response, 400, { error: { code: 'invalid_request', message: 'x' } }),
    );
    await expect(api.feedback.sendFeedback(feedback)).rejects.toThrow('API call failed: 400');
  });

  it('gets a speech token, and null when the server has no speech key', async () => {
    const token = { token: 'tok', region: 'eastus', expiresAt: '2030-01-01T00:00:00.000Z' };
    server.respondWith((_request, response) => sendJson(response, 200, token));
    expect(await api.token.fetchSpeechToken()).toEqual(token);
    expect(server.requests.at(-1)?.body.length).toBe(0);
    server.respondWith((_request, response) =>
      sendJson(response, 503, { error: { code: 'not_configured', message: 'no key' } }),
    );
    expect(await api.token.fetchSpeechToken()).toBeNull();
    // The day's spending cap: the browser's speech too (docs/behaviour.md §12.19).
    server.respondWith((_request, response) =>
      sendJson(response, 503, { error: { code: 'over_budget', message: 'the day is spent' } }),
    );
    expect(await api.token.fetchSpeechToken()).toBeNull();
    server.respondWith((_request, response) =>
      sendJson(response, 502, { error: { code: 'upstream_error', message: 'sts' } }),
    );
    await expect(api.token.fetchSpeechToken()).rejects.toThrow('API call failed: 502');
  });
});

describe('the VITE_* settings', () => {
  it('default to same-origin API calls and a provider byline', async () => {
    const { parseWebSettings } = await import('#web/lib/env');
    expect(parseWebSettings({})).toEqual({
      apiBase: '',
      providerName: 'Astro Learning',
      providerUrl: '/',
      contactUrl: '/',
    });
  });

  it('take the configured values, trimming a trailing slash from the API base', async () => {
    const { parseWebSettings } = await import('#web/lib/env');
    expect(
      parseWebSettings({
        VITE_API_BASE: 'https://api.example.org/',
        VITE_PROVIDER_NAME: 'Star Lab',
        VITE_PROVIDER_URL: 'https://starlab.example.org',
        VITE_CONTACT_URL: 'mailto:hello@starlab.example.org',
      }),
    ).toEqual({
      apiBase: 'https://api.example.org',
      providerName: 'Star Lab',
      providerUrl: 'https://starlab.example.org',
      contactUrl: 'mailto:hello@starlab.example.org',
    });
  });

  it('refuse a link that could run script, naming the variable', async () => {
    const { parseWebSettings } = await import('#web/lib/env');
    expect(() => parseWebSettings({ VITE_CONTACT_URL: 'javascript:alert(1)' })).toThrow(/VITE_CONTACT_URL/);
    expect(() => parseWebSettings({ VITE_API_BASE: 'ftp://x' })).toThrow(/VITE_API_BASE/);
  });
});
