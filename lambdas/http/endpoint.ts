import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import type { z } from 'zod';
import type { ErrorBody } from '../contract/errors';
import { MAX_BODY_BYTES } from '../contract/limits';
import { ApiError } from '../lib/api-error';
import { errorFields, log } from '../lib/log';
import { requireSameSite, type OriginRule } from './origin';
import { accepts, header, parseBody } from './request';
import { errorResponse, jsonResponse, streamHeaders } from './response';

/** What an endpoint's service call returns: the status and the JSON body to send. */
export interface Reply<T> {
  readonly status: number;
  readonly body: T;
  /** Extra response headers, e.g. which tutor answered (`X-Astro-Tutor`). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** A reply sent in pieces, each as soon as it exists (docs/behaviour.md §11). */
export interface StreamedReply {
  readonly status: number;
  readonly contentType: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** The body's pieces. A failure before the first piece is answered as an ordinary error response. */
  readonly chunks: AsyncIterable<string>;
  /** The last piece of a stream that fails after its first piece was sent (an `error` line). */
  readonly failure: (error: ErrorBody['error']) => string;
}

/**
 * A streamed result: the status and headers are final, the body is written as it comes. Its body never
 * throws (a failure becomes the reply's last piece) and ending it early (the client left) stops the work.
 */
export interface StreamedResult {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: AsyncIterable<string>;
}

export type ApiResult = APIGatewayProxyResult | StreamedResult;

export function isStreamed(result: ApiResult): result is StreamedResult {
  return typeof result.body !== 'string';
}

/** The slice of an API Gateway REST (payload v1) event the handlers read. */
export type ApiEvent = Pick<
  APIGatewayProxyEvent,
  'httpMethod' | 'path' | 'headers' | 'body' | 'isBase64Encoded'
> & {
  requestContext?:
    | (Partial<Pick<APIGatewayProxyEvent['requestContext'], 'requestId'>> & {
        /** The caller's address as API Gateway saw it (deployed that is CloudFront's; locally, the socket's). */
        readonly identity?: { readonly sourceIp?: string | null } | null;
      })
    | null;
};

export type ApiHandler = (event: ApiEvent) => Promise<APIGatewayProxyResult>;
/** A handler that may stream its answer (the chat endpoint). */
export type StreamingApiHandler = (event: ApiEvent) => Promise<ApiResult>;

export interface EndpointContext {
  readonly requestId: string;
  /** Whether the request's Accept header asks for this media type. */
  readonly accepts: (mediaType: string) => boolean;
  /** Aborted when the client stops reading a streamed answer, so the work behind it stops too. */
  readonly signal: AbortSignal;
  /** A request header (any case), for the few rules that read one (the caller's address). */
  readonly header: (name: string) => string | undefined;
  /** The address API Gateway (or the local server) saw the request come from. */
  readonly sourceIp: string | undefined;
}

export interface EndpointSpec<S extends z.ZodType, R> {
  /** The route, for logs: e.g. `/api/feedback`. */
  readonly route: string;
  /** Which origins are the site's own: a cross-site request is refused before anything else. */
  readonly origins: OriginRule;
  readonly schema: S;
  readonly maxBodyBytes?: number;
  readonly allowEmptyBody?: boolean;
  readonly handle: (input: z.output<S>, context: EndpointContext) => Promise<R>;
}

/**
 * Wraps one endpoint's logic in the HTTP rules every endpoint shares: POST only, same site only, body
 * limits and validation, typed errors mapped to the contract's codes, nothing raw escaping, one log line
 * per request. A handler may answer with a StreamedReply; the same rules hold, and its log line is written
 * when the stream ends.
 */
export function defineEndpoint<S extends z.ZodType, T>(spec: EndpointSpec<S, Reply<T>>): ApiHandler;
export function defineEndpoint<S extends z.ZodType, T>(
  spec: EndpointSpec<S, Reply<T> | StreamedReply>,
): StreamingApiHandler;
export function defineEndpoint<S extends z.ZodType, T>(
  spec: EndpointSpec<S, Reply<T> | StreamedReply>,
): StreamingApiHandler {
  return async (event) => {
    const started = performance.now();
    const requestId = event.requestContext?.requestId ?? crypto.randomUUID();
    const logRequest = (status: number, errorCode?: string, fields: Record<string, boolean> = {}) =>
      log.info('request', {
        route: spec.route,
        method: event.httpMethod,
        status,
        durationMs: Math.round(performance.now() - started),
        errorCode,
        requestId,
        ...fields,
      });
    const failed = (error: unknown): ApiError => {
      const apiError = toApiError(error);
      if (apiError.status >= 500) {
        log.error('request failed', {
          route: spec.route,
          requestId,
          code: apiError.code,
          ...causeFields(error),
        });
      }
      return apiError;
    };
    const stopped = new AbortController();
    let result: APIGatewayProxyResult;
    let errorCode: string | undefined;
    try {
      if (event.httpMethod !== 'POST') {
        throw new ApiError('method_not_allowed', `${spec.route} accepts POST only.`);
      }
      requireSameSite(event, spec.origins);
      const input = parseBody(event, spec.schema, {
        maxBytes: spec.maxBodyBytes ?? MAX_BODY_BYTES,
        allowEmpty: spec.allowEmptyBody ?? false,
      });
      const reply = await spec.handle(input, {
        requestId,
        accepts: (mediaType) => accepts(event, mediaType),
        signal: stopped.signal,
        header: (name) => header(event, name),
        sourceIp: event.requestContext?.identity?.sourceIp ?? undefined,
      });
      if ('chunks' in reply) return await openStream(reply, { failed, logRequest, stopped });
      result = jsonResponse(reply.status, reply.body, reply.headers);
    } catch (error) {
      const apiError = failed(error);
      errorCode = apiError.code;
      result = errorResponse(apiError, apiError.code === 'method_not_allowed' ? { Allow: 'POST' } : {});
    }
    logRequest(result.statusCode, errorCode);
    return result;
  };
}

/**
 * Starts a streamed answer: the first piece is awaited here, so a failure before it throws (and is
 * answered as an ordinary error); later failures become the reply's `failure` piece.
 */
async function openStream(
  reply: StreamedReply,
  request: {
    readonly failed: (error: unknown) => ApiError;
    readonly logRequest: (status: number, errorCode?: string, fields?: Record<string, boolean>) => void;
    readonly stopped: AbortController;
  },
): Promise<StreamedResult> {
  const pieces = reply.chunks[Symbol.asyncIterator]();
  const first = await pieces.next();
  async function* body(): AsyncGenerator<string> {
    let errorCode: string | undefined;
    try {
      if (!first.done) {
        yield first.value;
        for (let next = await pieces.next(); !next.done; next = await pieces.next()) yield next.value;
      }
    } catch (error) {
      const apiError = request.failed(error);
      errorCode = apiError.code;
      yield reply.failure({ code: apiError.code, message: apiError.message });
    } finally {
      Promise.resolve(pieces.return?.()).catch(() => undefined);
      const closedEarly = request.stopped.signal.aborted;
      request.logRequest(reply.status, errorCode, {
        streamed: true,
        ...(closedEarly ? { closedEarly } : {}),
      });
    }
  }
  const lines = body();
  // Ending the stream early (the client left) aborts the work behind it at once, not after its next piece.
  const stoppable: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      next: () => lines.next(),
      return: (value?: unknown) => {
        request.stopped.abort();
        return lines.return(value as undefined);
      },
    }),
  };
  return {
    statusCode: reply.status,
    headers: streamHeaders(reply.contentType, reply.headers),
    body: stoppable,
  };
}

function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError('internal_error', 'Something went wrong on our side. Please try again.');
}

function causeFields(error: unknown) {
  const cause = error instanceof ApiError && error.cause !== undefined ? error.cause : error;
  return errorFields(cause);
}

/** The answer for a path no endpoint serves. */
export function notFound(path: string): APIGatewayProxyResult {
  return errorResponse(new ApiError('not_found', `No API endpoint at ${path.slice(0, 200)}.`));
}
