import { createServer } from 'node:http';
import { createServer as createSecureServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer, type RawData } from 'ws';
import { AzureSpeechFake } from '#support/azure-speech-fake';

export interface AzureSpeechServer {
  /** `ws://127.0.0.1:<port>` (`wss://` with a certificate): what the engine's serviceHost option takes. */
  readonly url: string;
  readonly port: number;
  readonly fake: AzureSpeechFake;
  close(): Promise<void>;
}

function bytesOf(data: RawData): Uint8Array {
  if (Array.isArray(data)) return Buffer.concat(data);
  return data instanceof ArrayBuffer ? new Uint8Array(data) : data;
}

/** The fake speech service on a loopback websocket server, for the real SDK running in Node. */
export async function startAzureSpeechServer(
  fake = new AzureSpeechFake(),
  options: { readonly certificate?: { readonly key: string; readonly cert: string } } = {},
): Promise<AzureSpeechServer> {
  const { certificate } = options;
  const http = certificate ? createSecureServer(certificate) : createServer();
  const scheme = certificate ? 'wss' : 'ws';
  // Every TCP socket, so close() also ends handshakes the fake left unanswered.
  const connections = new Set<Socket>();
  http.on('connection', (socket) => {
    connections.add(socket);
    socket.on('close', () => connections.delete(socket));
  });
  const server = new WebSocketServer({
    server: http,
    // A stalled handshake is never answered: the client's open() waits on its own deadline.
    verifyClient: ({ req }, accept) => {
      if (fake.stallHandshakes) return;
      const headers = { authorization: req.headers.authorization };
      if (fake.accepts(`ws://127.0.0.1${req.url ?? '/'}`, headers)) accept(true);
      else accept(false, 401, 'Unauthorized');
    },
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', resolve);
  });
  const { port } = http.address() as AddressInfo;
  server.on('connection', (socket, request) => {
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(request.headers))
      headers[name] = Array.isArray(value) ? value[0] : value;
    const session = fake.connect(`ws://127.0.0.1:${port}${request.url ?? '/'}`, headers, {
      sendText: (text) => socket.readyState === socket.OPEN && socket.send(text),
      sendBinary: (bytes) => socket.readyState === socket.OPEN && socket.send(bytes),
      close: (code, reason) => socket.close(code, reason),
    });
    socket.on('message', (data, isBinary) => {
      const bytes = bytesOf(data);
      session.receive(isBinary ? bytes : Buffer.from(bytes).toString('utf8'));
    });
    socket.on('close', () => session.closed());
  });
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    fake,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        for (const socket of connections) socket.destroy();
        server.close();
        http.close(() => resolve());
      }),
  };
}
