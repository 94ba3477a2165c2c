import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request a fake server received, for asserting exactly what a real client sent. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

export type FakeRoute = (request: RecordedRequest, response: ServerResponse) => void | Promise<void>;

export interface FakeServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Replaces how the server answers from now on. */
  respondWith(route: FakeRoute): void;
  close(): Promise<void>;
}

/**
 * An HTTP fake on 127.0.0.1 standing in for an upstream service (Bedrock, Secrets Manager, Azure STS, S3,
 * an OpenAI-compatible server). Real SDK clients reach it through their endpoint override.
 */
export async function startFakeServer(route: FakeRoute): Promise<FakeServer> {
  let current = route;
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      Promise.resolve(current(recorded, res)).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respondWith(next) {
      current = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with JSON. */
export function sendJson(response: ServerResponse, status: number, body: unknown, headers = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}

/** Never answers: for proving a client's timeout. The socket is released when the server closes. */
export function hang(): void {}
