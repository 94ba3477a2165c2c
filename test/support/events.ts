import type { APIGatewayProxyResult } from 'aws-lambda';
import {
  isStreamed,
  type ApiEvent,
  type ApiHandler,
  type ApiResult,
  type StreamingApiHandler,
} from '#lambdas/http/endpoint';

export interface EventInit {
  readonly method?: string;
  readonly path?: string;
  /** An object is sent as JSON; a string is sent as is. */
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
  readonly base64?: boolean;
  /** The caller's address as API Gateway names it (`requestContext.identity.sourceIp`). */
  readonly sourceIp?: string;
}

/** An API Gateway REST (payload v1) proxy event, as the Lambda receives it. */
export function apiEvent(init: EventInit = {}): ApiEvent {
  const text =
    init.body === undefined ? null : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  return {
    httpMethod: init.method ?? 'POST',
    path: init.path ?? '/api/test',
    headers: { 'Content-Type': 'application/json', ...init.headers },
    body: text !== null && init.base64 ? Buffer.from(text, 'utf8').toString('base64') : text,
    isBase64Encoded: init.base64 ?? false,
    requestContext: {
      requestId: crypto.randomUUID(),
      ...(init.sourceIp === undefined ? {} : { identity: { sourceIp: init.sourceIp } }),
    },
  };
}

/** The JSON body of a handler's result. */
export function bodyOf<T = Record<string, unknown>>(result: { body: string }): T {
  return JSON.parse(result.body) as T;
}

/** A handler's result that must be an ordinary (not streamed) answer. */
export function buffered(result: ApiResult): APIGatewayProxyResult {
  if (isStreamed(result)) throw new Error('expected an ordinary answer, got a stream');
  return result;
}

/** The chat handler for tests that read only ordinary (JSON) answers: a streamed one fails the test. */
export function answersInJson(handler: StreamingApiHandler): ApiHandler {
  return async (event) => buffered(await handler(event));
}
