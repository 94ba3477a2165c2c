/**
 * A handler's answer through Lambda response streaming, which API Gateway's STREAM response transfer
 * mode invokes (InvokeWithResponseStream): the HTTP metadata prelude first (status and headers, written
 * by the runtime's `awslambda.HttpResponseStream.from`), then the body, each piece as soon as it exists.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { APIGatewayProxyResult } from 'aws-lambda';
import {
  isStreamed,
  type ApiEvent,
  type ApiHandler,
  type ApiResult,
  type StreamingApiHandler,
} from './endpoint';

// A type alias, not an interface: the runtime's typings take the metadata as Record<string, unknown>.
export type HttpResponseMetadata = {
  readonly statusCode: number;
  readonly headers: Record<string, string>;
};

/** A handler as `awslambda.streamifyResponse` takes it. */
export type StreamifiedHandler = (
  event: ApiEvent,
  responseStream: Writable,
  context?: unknown,
) => Promise<void>;

/** The part of the Lambda Node.js runtime's `awslambda` global used here (it exists only in that runtime). */
export interface LambdaStreamingRuntime {
  /** Returns the function the runtime invokes; its shape is the runtime's business. */
  streamifyResponse(handler: StreamifiedHandler): unknown;
  readonly HttpResponseStream: {
    from(responseStream: Writable, metadata: HttpResponseMetadata): Writable;
  };
}

/** The runtime's global (@types/aws-lambda declares it, but it exists only inside the Lambda runtime). */
function runtimeGlobal(): LambdaStreamingRuntime | undefined {
  const runtime = (globalThis as { awslambda?: Partial<LambdaStreamingRuntime> }).awslambda;
  return typeof runtime?.streamifyResponse === 'function' && runtime.HttpResponseStream
    ? (runtime as LambdaStreamingRuntime)
    : undefined;
}

/**
 * The Lambda export for a handler that may stream. Inside the Lambda runtime it streams; anywhere else
 * (tests, tools importing the module) there is no `awslambda`, and the answer is collected into an
 * ordinary API Gateway result instead.
 */
export function streamingLambda(
  handler: StreamingApiHandler,
  runtime: LambdaStreamingRuntime | undefined = runtimeGlobal(),
): ApiHandler | unknown {
  if (!runtime) {
    const buffered: ApiHandler = async (event) => collectResult(await handler(event));
    return buffered;
  }
  return runtime.streamifyResponse(async (event, responseStream) => {
    await writeResult(await handler(event), responseStream, runtime);
  });
}

/** Writes a result to Lambda's response stream: the metadata prelude, then the body as it comes. */
export async function writeResult(
  result: ApiResult,
  responseStream: Writable,
  runtime: Pick<LambdaStreamingRuntime, 'HttpResponseStream'>,
): Promise<void> {
  const headers = Object.fromEntries(
    Object.entries(result.headers ?? {}).map(([name, value]) => [name, String(value)]),
  );
  const stream = runtime.HttpResponseStream.from(responseStream, { statusCode: result.statusCode, headers });
  if (isStreamed(result)) {
    for await (const piece of result.body) await write(stream, piece);
  } else {
    await write(stream, result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
  }
  await new Promise<void>((resolve) => stream.end(resolve));
}

async function write(stream: Writable, piece: string | Buffer): Promise<void> {
  if (!stream.write(piece)) await once(stream, 'drain');
}

/** A result with its whole body, as a buffered (non-streaming) integration returns it. */
export async function collectResult(result: ApiResult): Promise<APIGatewayProxyResult> {
  if (!isStreamed(result)) return result;
  let body = '';
  for await (const piece of result.body) body += piece;
  return { statusCode: result.statusCode, headers: { ...result.headers }, body };
}
