/**
 * Speaking Amazon Bedrock Runtime's REST wire format on a loopback fake: Converse
 * (`POST /model/<id>/converse`), ConverseStream (`POST /model/<id>/converse-stream`, binary event-stream
 * frames) and InvokeModel (`POST /model/<id>/invoke`) answers and AWS-style errors.
 * The Bedrock Runtime client talks HTTP/2 by default (its handler is NodeHttp2Handler, prior knowledge
 * on `http:`), so this fake is an HTTP/2 cleartext server with the same shape as loopback.ts's fakes.
 */
import type { ServerResponse } from 'node:http';
import { crc32 } from 'node:zlib';
import { createServer, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { FakeRoute, FakeServer, RecordedRequest } from '#support/loopback';
import { sendJson } from '#support/loopback';

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

/** What a fake model reports it read and wrote for a call, as Bedrock's `usage` carries it. */
export interface FakeUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** The usage the fakes report unless a test names its own. */
export const DEFAULT_FAKE_USAGE: FakeUsage = { inputTokens: 10, outputTokens: 10 };

const usageBody = (usage: FakeUsage) => ({ ...usage, totalTokens: usage.inputTokens + usage.outputTokens });

/** A Converse answer body, with the usage the model reports for it. */
export function converseAnswer(
  content: ConverseBlock[],
  stopReason = 'end_turn',
  usage = DEFAULT_FAKE_USAGE,
) {
  return {
    output: { message: { role: 'assistant', content } },
    stopReason,
    usage: usageBody(usage),
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

/**
 * One `application/vnd.amazon.eventstream` message, framed as Bedrock sends it and the SDK's
 * event-stream codec reads it: a prelude (total length, headers length, the prelude's CRC32), string
 * headers (name length, name, type 7, value length, value), the payload, and the message's CRC32.
 */
export function eventStreamMessage(headers: Record<string, string>, payload: Uint8Array): Buffer {
  const headerBytes = Buffer.concat(
    Object.entries(headers).map(([name, value]) => {
      const nameBytes = Buffer.from(name, 'utf8');
      const valueBytes = Buffer.from(value, 'utf8');
      const head = Buffer.alloc(1 + nameBytes.length + 1 + 2);
      head.writeUInt8(nameBytes.length, 0);
      nameBytes.copy(head, 1);
      head.writeUInt8(7, 1 + nameBytes.length);
      head.writeUInt16BE(valueBytes.length, 2 + nameBytes.length);
      return Buffer.concat([head, valueBytes]);
    }),
  );
  const total = 12 + headerBytes.length + payload.length + 4;
  const message = Buffer.alloc(total);
  message.writeUInt32BE(total, 0);
  message.writeUInt32BE(headerBytes.length, 4);
  message.writeUInt32BE(crc32(message.subarray(0, 8)), 8);
  headerBytes.copy(message, 12);
  Buffer.from(payload).copy(message, 12 + headerBytes.length);
  message.writeUInt32BE(crc32(message.subarray(0, total - 4)), total - 4);
  return message;
}

/** A ConverseStream event (`messageStart`, `contentBlockDelta`, …) as one event-stream message. */
export function converseEvent(eventType: string, body: Record<string, unknown>): Buffer {
  return eventStreamMessage(
    { ':event-type': eventType, ':content-type': 'application/json', ':message-type': 'event' },
    Buffer.from(JSON.stringify(body), 'utf8'),
  );
}

/** A modeled error inside the stream (e.g. `throttlingException`, `modelStreamErrorException`). */
export function converseException(exceptionType: string, message: string): Buffer {
  return eventStreamMessage(
    { ':exception-type': exceptionType, ':content-type': 'application/json', ':message-type': 'exception' },
    Buffer.from(JSON.stringify({ message }), 'utf8'),
  );
}

/** The events of a whole streamed answer: text in the given pieces, then tool uses, then the stop. */
export function converseStreamEvents(
  pieces: readonly string[],
  options: {
    tools?: { toolUseId: string; name: string; input: string[] }[];
    stopReason?: string;
    /** The usage the `metadata` event reports; `null` leaves the event out. */
    usage?: FakeUsage | null;
  } = {},
): Buffer[] {
  const events = [converseEvent('messageStart', { role: 'assistant' })];
  const hasText = pieces.length > 0;
  for (const text of pieces)
    events.push(converseEvent('contentBlockDelta', { contentBlockIndex: 0, delta: { text } }));
  if (hasText) events.push(converseEvent('contentBlockStop', { contentBlockIndex: 0 }));
  (options.tools ?? []).forEach((tool, offset) => {
    const contentBlockIndex = offset + (hasText ? 1 : 0);
    events.push(
      converseEvent('contentBlockStart', {
        contentBlockIndex,
        start: { toolUse: { toolUseId: tool.toolUseId, name: tool.name } },
      }),
    );
    for (const input of tool.input) {
      events.push(converseEvent('contentBlockDelta', { contentBlockIndex, delta: { toolUse: { input } } }));
    }
    events.push(converseEvent('contentBlockStop', { contentBlockIndex }));
  });
  events.push(
    converseEvent('messageStop', {
      stopReason: options.stopReason ?? (options.tools ? 'tool_use' : 'end_turn'),
    }),
  );
  if (options.usage !== null) {
    events.push(
      converseEvent('metadata', {
        usage: usageBody(options.usage ?? DEFAULT_FAKE_USAGE),
        metrics: { latencyMs: 5 },
      }),
    );
  }
  return events;
}

/** A step of a streamed answer: bytes to send, or a wait (for a test's signal) before the next. */
export type StreamStep = Buffer | (() => Promise<void>);

/**
 * Answers a ConverseStream call with event-stream messages written one at a time (waiting where a step
 * is a function); `end: false` leaves the stream open, as a model that stalls mid-reply does.
 */
export function converseStreamAnswer(
  steps: readonly StreamStep[],
  options: { end?: boolean } = {},
): FakeRoute {
  return async (_request, response) => {
    response.writeHead(200, {
      'Content-Type': 'application/vnd.amazon.eventstream',
      'x-amzn-requestid': 'fake-request',
    });
    for (const step of steps) {
      if (Buffer.isBuffer(step)) response.write(step);
      else await step();
    }
    if (options.end !== false) response.end();
  };
}

/** Routes each call in turn: the n-th call gets the n-th route, the last one repeating. */
export function routesInTurn(...routes: FakeRoute[]): FakeRoute {
  let next = 0;
  return (request, response) => {
    const route = routes[Math.min(next, routes.length - 1)];
    next += 1;
    return route?.(request, response);
  };
}

/** `/guardrail/<id>/version/<version>/apply` as the client sent it (ApplyGuardrail), or undefined. */
export function guardrailCall(request: RecordedRequest): { id: string; version: string } | undefined {
  const match = /^\/guardrail\/([^/]+)\/version\/([^/]+)\/apply$/.exec(request.url);
  return match
    ? { id: decodeURIComponent(match[1] ?? ''), version: decodeURIComponent(match[2] ?? '') }
    : undefined;
}

/** An ApplyGuardrail answer: `NONE` lets the text pass, `GUARDRAIL_INTERVENED` blocks it. */
export function guardrailAnswer(action: 'NONE' | 'GUARDRAIL_INTERVENED') {
  return {
    usage: {
      topicPolicyUnits: 1,
      contentPolicyUnits: 1,
      wordPolicyUnits: 1,
      sensitiveInformationPolicyUnits: 0,
      sensitiveInformationPolicyFreeUnits: 0,
      contextualGroundingPolicyUnits: 0,
    },
    action,
    outputs: action === 'NONE' ? [] : [{ text: 'Sorry, that cannot be shown.' }],
    assessments: [],
  };
}
