/**
 * Speaking Amazon Bedrock Runtime's REST wire format on a loopback fake: Converse
 * (`POST /model/<id>/converse`) and InvokeModel (`POST /model/<id>/invoke`) answers and AWS-style errors.
 * The Bedrock Runtime client talks HTTP/2 by default (its handler is NodeHttp2Handler, prior knowledge
 * on `http:`), so this fake is an HTTP/2 cleartext server with the same shape as loopback.ts's fakes.
 */
import type { ServerResponse } from 'node:http';
import { createServer, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { FakeRoute, FakeServer, RecordedRequest } from './loopback';
import { sendJson } from './loopback';

export async function startBedrockFake(route: FakeRoute): Promise<FakeServer> {
  let current = route;
  const requests: RecordedRequest[] = [];
  const sessions = new Set<Http2Session>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = {
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      // The HTTP/2 compatibility response has the writeHead/end that the shared routes use.
      const response = res as unknown as ServerResponse;
      Promise.resolve(current(recorded, response)).catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    });
  });
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
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
        for (const session of sessions) session.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A real 1×1 PNG. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

export function jsonOf<T = Record<string, unknown>>(request: RecordedRequest): T {
  return JSON.parse(request.body.toString('utf8')) as T;
}

/** `/model/<modelId>/<operation>` as the client sent it, with the model id decoded. */
export function bedrockCall(request: RecordedRequest): { modelId: string; operation: string } {
  const match = /^\/model\/([^/]+)\/([a-z-]+)$/.exec(request.url);
  if (!match) throw new Error(`not a Bedrock runtime path: ${request.url}`);
  return { modelId: decodeURIComponent(match[1] ?? ''), operation: match[2] ?? '' };
}

export type ConverseBlock =
  { text: string } | { toolUse: { toolUseId: string; name: string; input: Record<string, unknown> } };

export const textBlock = (text: string): ConverseBlock => ({ text });
export const pictureBlock = (prompt: string, toolUseId = 'tooluse-1'): ConverseBlock => ({
  toolUse: { toolUseId, name: 'show_picture', input: { prompt } },
});

/** A Converse answer body. */
export function converseAnswer(content: ConverseBlock[], stopReason = 'end_turn') {
  return {
    output: { message: { role: 'assistant', content } },
    stopReason,
    usage: { inputTokens: 10, outputTokens: 10, totalTokens: 20 },
    metrics: { latencyMs: 5 },
  };
}

/** Answers with JSON bodies in turn, the last one repeating. */
export function answersInTurn(...bodies: unknown[]): FakeRoute {
  let next = 0;
  return (_request, response) => {
    const body = bodies[Math.min(next, bodies.length - 1)];
    next += 1;
    sendJson(response, 200, body);
  };
}

/** An AWS JSON-protocol error, named the way the SDK reads it (`x-amzn-errortype`). */
export function awsError(status: number, errorType: string, message: string): FakeRoute {
  return (_request, response) => sendJson(response, status, { message }, { 'x-amzn-errortype': errorType });
}

/** Answers 200 with a body that is not JSON. */
export function notJson(text = '<html>gateway says hello</html>'): FakeRoute {
  return (_request, response) => {
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(text);
  };
}
