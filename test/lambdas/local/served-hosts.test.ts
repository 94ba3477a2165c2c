/**
 * The local server answers only for its own names and caps each client's connections (docs/behaviour.md
 * §16.13, §12.16): a page on another site that points its own name at 127.0.0.1 (DNS rebinding) is refused
 * before any handler runs, and one client's slow connections cannot use up everyone else's.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '#lambdas/local/server';
import { hostName, isServedHost, servedHostNames } from '#lambdas/local/served-hosts';

const OFFLINE = { ASTRO_MODEL: 'offline', ASTRO_IMAGE_MODEL: 'offline', AZURE_SPEECH_KEY: '' };

describe('the names the local server answers for', () => {
  it.each([
    ['localhost:8787', 'localhost'],
    ['LOCALHOST', 'localhost'],
    ['localhost.:8787', 'localhost'],
    ['127.0.0.1:8787', '127.0.0.1'],
    ['[::1]:8787', '::1'],
    ['astro.lan', 'astro.lan'],
    ['::1', undefined],
    ['', undefined],
    [undefined, undefined],
  ])('reads the Host %s as %s', (host, name) => {
    expect(hostName(host)).toBe(name);
  });

  it('serves only loopback names when bound to 127.0.0.1, whatever the machine’s addresses', () => {
    const served = servedHostNames('127.0.0.1', [], () => ['192.168.1.20']);
    expect([...served].sort()).toEqual(['127.0.0.1', '::1', 'localhost']);
    expect(isServedHost('192.168.1.20:8787', served)).toBe(false);
    expect(isServedHost('attacker.example:8787', served)).toBe(false);
  });

  it('serves the machine’s own addresses, the bound name and the configured names when bound to the network', () => {
    const served = servedHostNames('0.0.0.0', ['astro.lan', 'Classroom-Laptop:8787'], () => [
      '192.168.1.20',
      'fe80::1',
    ]);
    for (const host of [
      'localhost:8787',
      '192.168.1.20:8787',
      '[fe80::1]:8787',
      'astro.lan',
      'classroom-laptop',
    ]) {
      expect([host, isServedHost(host, served)]).toEqual([host, true]);
    }
    expect(isServedHost('attacker.example', served)).toBe(false);
    expect(servedHostNames('my-laptop.local', [], () => []).has('my-laptop.local')).toBe(true);
  });
});

describe('the local server, asked for another name', () => {
  let root: string;
  let server: LocalServer;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'astro-hosts-'));
    const webRoot = join(root, 'web');
    await mkdir(webRoot, { recursive: true });
    await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>Astro</title>');
    server = await startLocalServer({
      port: 0,
      dataDir: join(root, 'data'),
      webRoot,
      env: OFFLINE,
      limits: { maxConnectionsPerClient: 3 },
    });
  });
  afterAll(async () => {
    await server.close();
    await rm(root, { recursive: true, force: true });
  });

  /** One raw HTTP/1.1 request with the given Host (or none), answered in full. */
  function request(path: string, host: string | null, method = 'GET', body = ''): Promise<string> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port: Number(port) }, () => {
        socket.write(
          [
            `${method} ${path} HTTP/1.1`,
            ...(host === null ? [] : [`Host: ${host}`]),
            'Content-Type: application/json',
            `Content-Length: ${Buffer.byteLength(body)}`,
            'Connection: close',
            '',
            body,
          ].join('\r\n'),
        );
      });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.once('error', reject);
      socket.once('close', () => resolve(Buffer.concat(chunks).toString()));
    });
  }

  it.each(['localhost', '127.0.0.1', '[::1]'])('serves the page for Host %s', async (name) => {
    const port = new URL(server.url).port;
    expect(await request('/', `${name}:${port}`)).toMatch(/^HTTP\/1\.1 200/);
  });

  it('answers 421 for a page asked for by another name, before anything is served', async () => {
    const answer = await request('/', 'rebind.attacker.example:8787');
    expect(answer).toMatch(/^HTTP\/1\.1 421/);
    expect(answer).not.toContain('<title>Astro</title>');
  });

  it('answers 403 forbidden in the contract’s shape for an API call by another name: no handler runs', async () => {
    const body = JSON.stringify({
      userMessage: 'Hi',
      language: 'en-US',
      chatHistory: [],
      conversationId: '3f6c1b1e-8d2a-4c55-9e1f-7a0b2c4d6e81',
    });
    const answer = await request('/api/chat', 'rebind.attacker.example', 'POST', body);

    expect(answer).toMatch(/^HTTP\/1\.1 403/);
    expect(answer).toContain('"code":"forbidden"');
    expect(answer).not.toContain('signature');
  });

  it('refuses a request without a Host', async () => {
    expect(await request('/', null)).toMatch(/^HTTP\/1\.1 (421|400)/);
  });

  it('caps one client’s connections while another client is still served', async () => {
    const { port } = new URL(server.url);
    const from = (localAddress: string) =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect({ host: '127.0.0.1', port: Number(port), localAddress }, () =>
          resolve(socket),
        );
        socket.once('error', reject);
      });
    const closed = (socket: Socket) =>
      new Promise<string>((resolve) => {
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('error', () => undefined);
        socket.once('close', () => resolve(Buffer.concat(chunks).toString()));
      });
    const greedy: Socket[] = [];
    try {
      for (let index = 0; index < 3; index += 1) greedy.push(await from('127.0.0.1'));
      await new Promise((resolve) => setImmediate(resolve));
      const oneTooMany = await from('127.0.0.1');
      greedy.push(oneTooMany);
      expect(await closed(oneTooMany)).toBe('');

      const other = await from('127.0.0.2');
      const answer = closed(other);
      other.write(`GET / HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: close\r\n\r\n`);
      expect(await answer).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      for (const socket of greedy) socket.destroy();
    }
  });
});
