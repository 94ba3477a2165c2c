/**
 * The local server against slow and greedy clients (docs/behaviour.md §12.16): slow headers and bodies are
 * cut by their timeouts (short ones injected here), connections are capped, stopping never waits on a
 * client, and the data directory's lock holds against a second process.
 */
import { connect, type Socket } from 'node:net';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ClassicLevel } from 'classic-level';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDynamo } from '#lambdas/local/embedded-dynamo';
import { startLocalServer, type LocalServer } from '#lambdas/local/server';
import { stopOnSignal } from '#lambdas/local/stop-signals';
import { Trust } from '#lambdas/trust/trust';
import { fileTrustKeys } from '#lambdas/trust/trust-keys';
import { TEST_CONVERSATION_ID } from '#support/trust';

let root: string;
let webRoot: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'astro-limits-'));
  webRoot = join(root, 'web');
  await mkdir(join(webRoot, '.vite'), { recursive: true });
  await mkdir(join(webRoot, 'assets'), { recursive: true });
  await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Astro</title>');
  await writeFile(join(webRoot, '.vite', 'manifest.json'), '{"secret":"build internals"}');
  await writeFile(join(webRoot, 'assets', 'app-1.js.map'), '{"sources":["../src/app.ts"]}');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const TABLE = 'astro-feedback';
const OFFLINE = { ASTRO_MODEL: 'offline', ASTRO_IMAGE_MODEL: 'offline', AZURE_SPEECH_KEY: '' };

const startWith = (limits: Parameters<typeof startLocalServer>[0]['limits'], name: string) =>
  startLocalServer({ port: 0, dataDir: join(root, name), webRoot, env: OFFLINE, limits });

/** A raw TCP client: what a slow or greedy client really sends. */
function open(server: LocalServer): Promise<Socket> {
  const { hostname, port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server writes until it closes the connection. */
function untilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(Buffer.concat(chunks).toString()));
  });
}

describe('local server: slow clients', () => {
  let server: LocalServer;
  /** Only the headers deadline is short: the whole request's cannot stand in for it within the test. */
  let slowHeaders: LocalServer;
  beforeAll(async () => {
    server = await startWith({ headersTimeoutMs: 200, requestTimeoutMs: 400 }, 'slow');
    slowHeaders = await startWith({ headersTimeoutMs: 200, requestTimeoutMs: 120_000 }, 'slow-headers');
  });
  afterAll(() => Promise.all([server.close(), slowHeaders.close()]));

  it('cuts a client that never finishes its headers (408)', async () => {
    const socket = await open(slowHeaders);
    const answer = untilClosed(socket);
    socket.write('POST /api/chat HTTP/1.1\r\nHost: localhost\r\nContent-Type: appl');

    expect(await answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts a body sent a byte at a time (408), instead of holding it for minutes', async () => {
    const socket = await open(server);
    const answer = untilClosed(socket);
    socket.write(
      'POST /api/feedback HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    const drip = setInterval(() => socket.writable && socket.write('{'), 50);

    try {
      expect(await answer).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(drip);
    }
  });
});

describe('local server: connection cap', () => {
  it('refuses connections beyond the cap and keeps serving those it has', async () => {
    const server = await startWith({ maxConnections: 2 }, 'cap');
    const sockets: Socket[] = [];
    try {
      sockets.push(await open(server), await open(server));
      // Let the server count both before the third arrives.
      await new Promise((resolve) => setImmediate(resolve));
      const third = await open(server);
      sockets.push(third);

      expect(await untilClosed(third)).toBe('');
      const [first] = sockets;
      if (!first) throw new Error('no first connection');
      const answer = new Promise<string>((resolve) =>
        first.once('data', (chunk: Buffer) => resolve(chunk.toString())),
      );
      first.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
      expect(await answer).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await server.close();
    }
  });
});

describe('local server: stopping', () => {
  it('stops within its grace period even while a client is sending a slow body', async () => {
    const server = await startWith(
      { shutdownGraceMs: 100, requestTimeoutMs: 120_000, headersTimeoutMs: 60_000 },
      'stop',
    );
    const socket = await open(server);
    const closed = untilClosed(socket);
    socket.write(
      'POST /api/feedback HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    await new Promise((resolve) => setTimeout(resolve, 20));

    await server.close();

    await closed;
    expect(socket.destroyed).toBe(true);
  });

  it('exits at once on a second Ctrl-C, while the first is still stopping', () => {
    const exits: number[] = [];
    const stop = stopOnSignal({
      close: () => new Promise(() => undefined),
      exit: (code) => exits.push(code),
      say: () => undefined,
    });

    stop('SIGINT');
    expect(exits).toEqual([]);
    stop('SIGINT');

    expect(exits).toEqual([130]);
  });
});

describe('local server: build files', () => {
  it('serves neither the Vite manifest nor source maps', async () => {
    const server = await startWith({}, 'build');
    try {
      expect((await fetch(`${server.url}/.vite/manifest.json`)).status).toBe(404);
      expect((await fetch(`${server.url}/assets/app-1.js.map`)).status).toBe(404);
      expect((await fetch(`${server.url}/`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe('the data directory lock', () => {
  it('names this process in the lock only once the database is open, and removes it on close', async () => {
    const directory = join(root, 'owned');

    const dynamo = await startEmbeddedDynamo({ directory, tableName: TABLE });

    expect(await readFile(join(directory, 'astro.pid'), 'utf8')).toBe(String(process.pid));
    await dynamo.close();
    await expect(stat(join(directory, 'astro.pid'))).rejects.toThrow();
  });

  it('refuses to start while another start holds the lock (created exclusively, not yet named)', async () => {
    const directory = join(root, 'starting');
    await mkdir(directory, { recursive: true });
    await writeFile(join(directory, 'astro.pid'), '');

    await expect(startEmbeddedDynamo({ directory, tableName: TABLE })).rejects.toThrow(/is in use/);
    expect(await readFile(join(directory, 'astro.pid'), 'utf8')).toBe('');
  });

  it('refuses to start while a running process owns the directory, naming it', async () => {
    const directory = join(root, 'running');
    await mkdir(directory, { recursive: true });
    // This test runner's parent is alive and is not this process.
    await writeFile(join(directory, 'astro.pid'), String(process.ppid));

    await expect(startEmbeddedDynamo({ directory, tableName: TABLE })).rejects.toThrow(
      new RegExp(`in use by process ${process.ppid}`),
    );
  });

  it('takes over a lock left by a process that is gone', async () => {
    const directory = join(root, 'stale');
    await mkdir(directory, { recursive: true });
    await writeFile(join(directory, 'astro.pid'), '999999999');

    const dynamo = await startEmbeddedDynamo({ directory, tableName: TABLE });

    expect(await readFile(join(directory, 'astro.pid'), 'utf8')).toBe(String(process.pid));
    await dynamo.close();
  });

  it('says clearly that the database is in use when something else holds it, instead of crashing', async () => {
    const directory = join(root, 'foreign');
    await mkdir(directory, { recursive: true });
    const holder = new ClassicLevel(directory);
    await holder.open();
    try {
      await expect(startEmbeddedDynamo({ directory, tableName: TABLE })).rejects.toThrow(/is in use/);
      await expect(stat(join(directory, 'astro.pid'))).rejects.toThrow();
    } finally {
      await holder.close();
    }
  });
});

describe('local server: the signing key', () => {
  it('is created at first start under the data directory with mode 0600, and signs across restarts', async () => {
    const dataDir = join(root, 'keyed');
    const ask = async (server: LocalServer, chatHistory: unknown[] = []) => {
      const response = await fetch(`${server.url}/api/chat`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: server.url },
        body: JSON.stringify({
          userMessage: 'Tell me about Mars',
          language: 'en-US',
          chatHistory,
          conversationId: TEST_CONVERSATION_ID,
        }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { response: string; signature: string };
    };

    const first = await startLocalServer({ port: 0, dataDir, webRoot, env: OFFLINE });
    const reply = await ask(first);
    expect((await stat(join(dataDir, 'trust-key.json'))).mode & 0o777).toBe(0o600);
    await first.close();

    const second = await startLocalServer({ port: 0, dataDir, webRoot, env: OFFLINE });
    try {
      const history = [
        { role: 'user' as const, content: 'Tell me about Mars' },
        { role: 'assistant' as const, content: reply.response, signature: reply.signature },
      ];
      const kept = await new Trust(fileTrustKeys(join(dataDir, 'trust-key.json'))).trustedHistory(
        TEST_CONVERSATION_ID,
        history,
      );
      expect(kept.turns).toHaveLength(2);
      await ask(second, history);
    } finally {
      await second.close();
    }
  });
});
