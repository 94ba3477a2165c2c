import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sendStream } from '#lambdas/local/local-api';
import { gate } from '#support/tutor-stream';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Serves one streamed result whose first piece waits on `firstReady`; returns the server's port. */
async function serveStream(firstReady: () => Promise<void>): Promise<number> {
  async function* body(): AsyncGenerator<string> {
    await firstReady();
    yield '{"type":"delta","text":"Stars are hot."}\n';
    yield '{"type":"done"}\n';
  }
  server = createServer((_request, response) => {
    void sendStream(
      response,
      { statusCode: 200, headers: { 'Content-Type': 'application/x-ndjson' }, body: body() },
      {},
    );
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('sendStream (the local server writing a streamed reply)', () => {
  it('sends the head with the first piece, never alone before it (docs/behaviour.md §11.7)', async () => {
    const first = gate();
    const port = await serveStream(first.wait);
    const socket = connect(port, '127.0.0.1');
    socket.write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    const firstPacket = new Promise<string>((resolve) =>
      socket.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))),
    );
    // Time for a head sent on its own to arrive; the piece is released only after.
    await new Promise((resolve) => setTimeout(resolve, 50));
    first.open();
    const packet = await firstPacket;
    socket.destroy();

    expect(packet).toMatch(/^HTTP\/1\.1 200 /);
    expect(packet).toContain('{"type":"delta","text":"Stars are hot."}');
  });
});
