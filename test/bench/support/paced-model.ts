/**
 * An OpenAI-compatible chat model on 127.0.0.1 that streams its reply at a steady pace, as a hosted model
 * does: SSE `chat.completion.chunk`s (test/support/openai-fake.ts), the first token after `firstTokenMs`,
 * then one every 1000 / `tokensPerSecond` ms, each on an absolute schedule from the request so timer
 * lateness does not accumulate. Records when each token was written (epoch milliseconds, comparable with
 * a page's `performance.timeOrigin + performance.now()`).
 */
import type { ServerResponse } from 'node:http';
import { startFakeServer, type FakeServer, type RecordedRequest } from '#support/loopback';
import { completionChunk, sseData } from '#support/openai-fake';

export interface PacedModelOptions {
  readonly firstTokenMs: number;
  readonly tokensPerSecond: number;
  /** The tokens of the answer to this request (words with their leading space). */
  readonly tokensFor: (messages: readonly { role: string; content: unknown }[]) => readonly string[];
}

/** One streamed answer: when the request arrived and when each token was sent. */
export interface PacedAnswer {
  readonly tokens: readonly string[];
  readonly requestAt: number;
  readonly sentAt: number[];
}

export interface PacedModel {
  readonly url: string;
  readonly answers: PacedAnswer[];
  close(): Promise<void>;
}

const clock = () => performance.timeOrigin + performance.now();

const until = (at: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));

export async function startPacedModel(options: PacedModelOptions): Promise<PacedModel> {
  const answers: PacedAnswer[] = [];
  const interval = 1000 / options.tokensPerSecond;
  const server: FakeServer = await startFakeServer(
    async (request: RecordedRequest, response: ServerResponse) => {
      const started = performance.now();
      const body = JSON.parse(request.body.toString('utf8')) as {
        messages?: { role: string; content: unknown }[];
      };
      const answer: PacedAnswer = {
        tokens: options.tokensFor(body.messages ?? []),
        requestAt: performance.timeOrigin + started,
        sentAt: [],
      };
      answers.push(answer);
      response.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-cache',
      });
      response.flushHeaders();
      for (const [index, content] of answer.tokens.entries()) {
        await until(started + options.firstTokenMs + index * interval);
        if (response.destroyed) return;
        response.write(sseData(completionChunk({ content })));
        answer.sentAt.push(clock());
      }
      response.write(sseData(completionChunk({ finishReason: 'stop' })));
      response.end('data: [DONE]\n\n');
    },
  );
  return { url: server.url, answers, close: () => server.close() };
}
