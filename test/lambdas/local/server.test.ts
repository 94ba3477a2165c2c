import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { request as httpRequest } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointOverride } from '#lambdas/config';
import { FEEDBACK_MAX_BODY_BYTES, MAX_BODY_BYTES } from '#contract/limits';
import { LOCAL_FEEDBACK_TABLE } from '#lambdas/local/local-api';
import { startLocalServer, type LocalServer } from '#lambdas/local/server';
import { feedbackBody } from '#support/feedback';

const INDEX_HTML = '<!doctype html><title>Astro test page</title><div id="root"></div>';
const APP_JS = 'console.log("astro");';
const IMAGE_ID = '3f8e2a55-0d0b-4d5e-9a7e-2c1b1a0f9e11';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';

let dataDir: string;
let webRoot: string;
let server: LocalServer;

/** Options every start uses: offline providers and no speech key, whatever this machine has set. */
const start = () =>
  startLocalServer({
    port: 0,
    dataDir,
    webRoot,
    env: { ASTRO_MODEL: 'offline', ASTRO_IMAGE_MODEL: 'offline', AZURE_SPEECH_KEY: '', SPEECH_SECRET_ID: '' },
  });

beforeAll(async () => {
  const root = await mkdtemp(join(tmpdir(), 'astro-local-'));
  dataDir = join(root, 'data');
  webRoot = join(root, 'web');
  await mkdir(join(webRoot, 'assets'), { recursive: true });
  await writeFile(join(webRoot, 'index.html'), INDEX_HTML);
  await writeFile(join(webRoot, 'assets', 'app-3d9f1c.js'), APP_JS);
  await writeFile(join(webRoot, 'robots.txt'), 'User-agent: *');
  await writeFile(join(root, 'secret.txt'), 'outside the web root');
  await mkdir(join(dataDir, 'images'), { recursive: true });
  await writeFile(join(dataDir, 'images', `${IMAGE_ID}.svg`), SVG);
  server = await start();
});
afterAll(async () => {
  await server.close();
  await rm(join(dataDir, '..'), { recursive: true, force: true });
});

const postJson = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

/** A request with the path sent exactly as written (fetch would normalise `..` away). */
function rawGet(path: string): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest({ hostname, port, path, method: 'GET' }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          body: Buffer.concat(chunks).toString(),
          headers: response.headers,
        }),
      );
    });
    request.on('error', reject);
    request.end();
  });
}

/** Streams `size` bytes without announcing a length, as a chunked upload does. */
function postChunked(path: string, size: number): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { hostname, port, path, method: 'POST', headers: { 'Content-Type': 'application/json' } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      },
    );
    // The server may hang up once it has answered; what matters is the answer.
    request.on('error', (error) => (request.writableEnded ? undefined : reject(error)));
    const chunk = Buffer.alloc(16 * 1024, 'a');
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
      request.end();
    };
    pump();
  });
}

describe('local server: /api/feedback', () => {
  it('stores feedback (201), answers a repeat with 200 stored:false, and keeps it across a restart', async () => {
    const body = feedbackBody();

    const first = await postJson('/api/feedback', body);
    const repeat = await postJson('/api/feedback', { ...body, helpfulness: 1 });

    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ stored: true });
    expect(repeat.status).toBe(200);
    expect(await repeat.json()).toEqual({ stored: false });

    await server.close();
    server = await start();
    const afterRestart = await postJson('/api/feedback', body);
    const client = DynamoDBDocumentClient.from(
      new DynamoDBClient({ region: 'us-east-1', ...endpointOverride(server.env.DYNAMODB_ENDPOINT) }),
    );
    const { Item } = await client.send(
      new GetCommand({ TableName: LOCAL_FEEDBACK_TABLE, Key: { conversationId: body.conversationId } }),
    );
    client.destroy();

    expect(afterRestart.status).toBe(200);
    expect(Item).toMatchObject({
      conversationId: body.conversationId,
      helpfulness: 5,
      chatHistory: body.chatHistory,
    });
  });

  it.each([
    ['text that is not JSON', 'garbage', {}, 400, 'invalid_json'],
    [
      'a body without the JSON content type',
      '{}',
      { 'Content-Type': 'text/plain' },
      415,
      'unsupported_media_type',
    ],
    ['an invalid rating', JSON.stringify(feedbackBody({ helpfulness: 9 })), {}, 400, 'invalid_request'],
  ])('answers %s with the right error JSON', async (_name, body, headers, status, code) => {
    const response = await postJson('/api/feedback', body, headers);

    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ error: { code, message: expect.any(String) } });
  });

  it('answers GET with 405 and Allow: POST', async () => {
    const response = await fetch(`${server.url}/api/feedback`);

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('refuses an announced oversize body with 413 without reading it', async () => {
    const response = await postJson('/api/feedback', 'a'.repeat(FEEDBACK_MAX_BODY_BYTES + 1));

    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'payload_too_large' } });
  });

  it('refuses a chunked oversize body with 413 once it passes the limit', async () => {
    const response = await postChunked('/api/chat', 4 * MAX_BODY_BYTES);

    expect(response.status).toBe(413);
    expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'payload_too_large' } });
  });
});

describe('local server: other API routes', () => {
  it('routes /api/chat to the chat handler', async () => {
    const response = await postJson('/api/chat', { userMessage: 'Hi', language: 'xx-XX', chatHistory: [] });

    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: 'invalid_request', message: expect.stringMatching(/^language:/) },
    });
  });

  it('routes /api/generateImage to the image handler', async () => {
    const response = await postJson('/api/generateImage', { prompt: '' });

    expect(await response.json()).toMatchObject({
      error: { code: 'invalid_request', message: expect.stringMatching(/^prompt:/) },
    });
  });

  it('answers /api/speechToken with 503 not_configured when no speech key is set', async () => {
    const response = await fetch(`${server.url}/api/speechToken`, { method: 'POST' });

    expect(response.status).toBe(503);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toMatchObject({ error: { code: 'not_configured' } });
  });

  it.each(['/api/nothing', '/api', '/api/feedback/extra', '/api/Feedback'])(
    'answers %s with 404 not_found JSON',
    async (path) => {
      const response = await postJson(path, {});

      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
    },
  );

  it('ignores a query string when routing', async () => {
    const response = await postJson('/api/feedback?x=1', feedbackBody());

    expect(response.status).toBe(201);
  });
});

describe('local server: /images', () => {
  it('serves a stored picture with its type, a long cache life and a sandboxing policy', async () => {
    const response = await fetch(`${server.url}/images/${IMAGE_ID}.svg`);

    expect(response.status).toBe(200);
    expect(await response.text()).toBe(SVG);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('content-security-policy')).toContain('sandbox');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it.each([
    '/images/../index.html',
    '/images/../../secret.txt',
    '/images/..%2f..%2fsecret.txt',
    '/images/%2e%2e/%2e%2e/secret.txt',
    '/images/sub/x.png',
    '/images/.hidden.png',
    `/images/${IMAGE_ID}.txt`,
    '/images/missing.png',
  ])('refuses %s with 404', async (path) => {
    const response = await rawGet(path);

    expect(response.status).toBe(404);
    expect(response.body).not.toContain('outside the web root');
    expect(response.body).not.toContain('Astro test page');
  });
});

describe('local server: the web app', () => {
  it('serves index.html at / with no-cache and the site’s security headers', async () => {
    const response = await fetch(`${server.url}/`);

    expect(response.status).toBe(200);
    expect(await response.text()).toBe(INDEX_HTML);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("form-action 'self'");
    expect(policy).toContain('wss://eastus.stt.speech.microsoft.com');
    expect(policy).not.toContain('upgrade-insecure-requests');
    expect(response.headers.get('permissions-policy')).toContain('microphone=(self)');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('falls back to index.html for an app path', async () => {
    const response = await fetch(`${server.url}/some/learner/path?lang=fr`);

    expect(response.status).toBe(200);
    expect(await response.text()).toBe(INDEX_HTML);
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('serves hashed assets as immutable with their content type', async () => {
    const response = await fetch(`${server.url}/assets/app-3d9f1c.js`);

    expect(response.status).toBe(200);
    expect(await response.text()).toBe(APP_JS);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('serves other files of the build with revalidation', async () => {
    const response = await fetch(`${server.url}/robots.txt`);

    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it.each(['/assets/missing.js', '/missing.png', '/../secret.txt', '/%2e%2e/secret.txt', '/..%2fsecret.txt'])(
    'answers %s with 404, not the page and nothing outside the web root',
    async (path) => {
      const response = await rawGet(path);

      expect(response.status).toBe(404);
      expect(response.body).not.toContain('outside the web root');
      expect(response.body).not.toContain('Astro test page');
    },
  );

  it('answers HEAD without a body and POST with 405', async () => {
    const head = await fetch(`${server.url}/`, { method: 'HEAD' });
    const post = await fetch(`${server.url}/`, { method: 'POST' });

    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    expect(post.status).toBe(405);
  });
});
